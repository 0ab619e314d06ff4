// A temp consumer package that installs this project from its `npm pack` tarball, as a user would.
import { cp, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { dir } from 'tmp-promise';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

export interface PackedConsumer {
  /** The consumer package's directory (its package.json, node_modules, tests). */
  readonly path: string;
  /** A scratch directory inside the temp root, used as TMPDIR for the spawned harness. */
  readonly tmpdir: string;
  /** The environment for commands run in the consumer: offline npm, TMPDIR inside the temp root. */
  readonly env: Record<string, string>;
  cleanup(): Promise<void>;
}

/** Packs the repo (dist/ must be built) and installs the tarball into a fresh consumer package. */
export async function createPackedConsumer(): Promise<PackedConsumer> {
  if (!existsSync(join(REPO, 'dist', 'index.js'))) throw new Error('dist/ is missing: run npm run build (npm test does) first');
  const root = await dir({ prefix: 'ejc-consumer-', unsafeCleanup: true });
  try {
    const path = join(root.path, 'consumer');
    const tmpdir = join(root.path, 'tmp');
    await mkdir(path);
    await mkdir(tmpdir);
    const env = consumerEnv(tmpdir);
    const packed = await execa('npm', ['pack', '--pack-destination', root.path, '--json'], { cwd: REPO, env, extendEnv: false });
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string }>;
    if (!info) throw new Error(`npm pack printed no tarball: ${packed.stdout}`);
    const tarball = join(root.path, info.filename);
    await writeFile(join(path, 'package.json'), `${JSON.stringify({ name: 'ejc-consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
    await installTarball(path, tarball, env);
    await reuseNativeAndVitest(path);
    return { path, tmpdir, env, cleanup: () => root.cleanup() };
  } catch (error) {
    await root.cleanup();
    throw error;
  }
}

/** The environment of a command run "by the user" in the consumer, without the outer vitest's variables. */
export function consumerEnv(tmpdir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(__)?VITEST|^TEST$|^NODE_ENV$|^NODE_OPTIONS$/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, TMPDIR: tmpdir, CI: 'true', NO_COLOR: '1', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
}

// Installed from the npm cache that `npm ci` filled, so CI stays fast and works without the network;
// install scripts are skipped because better-sqlite3's would download a prebuilt binary.
async function installTarball(path: string, tarball: string, env: Record<string, string>): Promise<void> {
  const args = ['install', tarball, '--ignore-scripts', '--no-audit', '--no-fund'];
  const offline = await execa('npm', [...args, '--offline'], { cwd: path, env, extendEnv: false, reject: false });
  if (offline.exitCode === 0) return;
  await execa('npm', [...args, '--prefer-offline'], { cwd: path, env, extendEnv: false });
}

// The consumer gets this repo's compiled better-sqlite3 binary (same pinned version) and its vitest.
async function reuseNativeAndVitest(path: string): Promise<void> {
  const modules = join(path, 'node_modules');
  await cp(join(REPO, 'node_modules', 'better-sqlite3', 'build'), join(modules, 'better-sqlite3', 'build'), { recursive: true });
  await symlink(join(REPO, 'node_modules', 'vitest'), join(modules, 'vitest'), 'dir');
  await mkdir(join(modules, '.bin'), { recursive: true });
  if (!(await readdir(join(modules, '.bin'))).includes('vitest')) {
    await symlink(join('..', 'vitest', 'vitest.mjs'), join(modules, '.bin', 'vitest'));
  }
}
