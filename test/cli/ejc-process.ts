// Runs the compiled `ejc` in a real child process (build first: npx tsc -p .).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

export const EJC = fileURLToPath(new URL('../../dist/bin/ejc.js', import.meta.url));

export interface EjcResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Spawns `node dist/bin/ejc.js ...args` and returns its exit code and output. */
export async function ejc(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<EjcResult> {
  if (!existsSync(EJC)) throw new Error(`${EJC} is missing: run npx tsc -p . before the CLI tests`);
  const child = await execa(process.execPath, [EJC, ...args], {
    reject: false,
    stdin: 'ignore',
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: { CI: 'true', ...options.env },
  });
  return { exitCode: child.exitCode ?? -1, stdout: child.stdout, stderr: child.stderr };
}
