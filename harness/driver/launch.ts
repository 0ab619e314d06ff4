// Turns a Launch into the executable and arguments to spawn, with pre-flight checks that need no process.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EjcError } from '../../shared/errors.js';
import { currentHostBundle } from './host-bundle.js';
import type { Launch } from '../../reports/schema.js';
import { confinementPrefix } from '../../shared/confinement.js';

export interface SpawnSpec {
  readonly file: string;
  readonly args: string[];
  /** How the driver was started, for error messages. */
  readonly describe: string;
  /** Started as the init of its own PID namespace (see confinement.ts): nothing it starts can outlive it. */
  readonly confined: boolean;
}

/**
 * The launch, confined (confinement.ts): the driver, whatever its language, runs in a new PID namespace whose init
 * dies with unshare, the group and session leader the harness kills; when the init dies the kernel kills every
 * process in the namespace. A launch under strace puts strace inside too: it traces and kills the driver as before,
 * and the driver's death (the init passes on its status, 137) ends the namespace with everything it started.
 */
export function resolveLaunch(launch: Launch, cwd: string): SpawnSpec {
  const spec = resolveBare(launch, cwd);
  const prefix = confinementPrefix();
  if (prefix.length === 0) return { ...spec, confined: false };
  return { file: prefix[0]!, args: [...prefix.slice(1), spec.file, ...spec.args], describe: spec.describe, confined: true };
}

/** Resolves a launch against `cwd`; a module launch whose file is missing fails here, before anything is spawned. */
function resolveBare(launch: Launch, cwd: string): Omit<SpawnSpec, 'confined'> {
  if (launch.kind === 'command') {
    // Through the shell in the driver's own group, so `python3 x.py` and its children die together.
    return { file: '/bin/sh', args: ['-c', launch.command], describe: `command \`${launch.command}\`` };
  }
  const modulePath = resolve(cwd, launch.module);
  if (!existsSync(modulePath)) {
    throw new EjcError(
      'adapter_missing',
      `adapter module not found: ${modulePath} — build it first (npx tsc -p .) or pass --impl <path> to a module exporting createJournal`,
    );
  }
  const args = [hostScriptPath(), '--module', modulePath];
  for (const [key, value] of Object.entries(launch.options)) args.push('--option', `${key}=${value}`);
  return { file: process.execPath, args, describe: `host driver for ${modulePath}` };
}

/** The compiled host driver, located next to this file (dist/ or an installed package), or in dist/ when run from sources. */
export function hostScriptPath(): string {
  const here = fileURLToPath(import.meta.url);
  const candidates = [resolve(dirname(here), 'host.js')];
  // Tests import the TypeScript sources; the host must still be the compiled JS under dist/.
  if (here.endsWith('.ts')) candidates.push(resolve(dirname(here), '../../dist/harness/driver/host.js'));
  const found = candidates.find((candidate) => existsSync(candidate));
  if (found === undefined) {
    throw new EjcError('driver_start_failed', `the host driver is not built (looked for ${candidates.join(', ')}): run npx tsc -p .`);
  }
  // Its one-file CommonJS bundle while that is current: it starts faster (see host-bundle.ts).
  return currentHostBundle(found) ?? found;
}
