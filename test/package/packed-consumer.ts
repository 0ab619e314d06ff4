// A temp consumer package that installs this project from its `npm pack` tarball, as a user would.
import { cp, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { dir } from 'tmp-promise';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGE_VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

export interface PackedConsumer {
  /** The consumer package's directory (its package.json, node_modules, tests). */
  readonly path: string;
  /** A scratch directory inside the temp root, used as TMPDIR for the spawned harness. */
  readonly tmpdir: string;
  /** The environment for commands run in the consumer: offline npm, TMPDIR inside the temp root. */
  readonly env: Record<string, string>;
  cleanup(): Promise<void>;
}

/** The install route docs/writing-an-adapter.md tells, run verbatim in the consumer (its test checks the guide shows exactly this). */
export const INSTALL_COMMANDS = `npm pack ../effect-journal-conformance
npm install --save-dev ./effect-journal-conformance-${PACKAGE_VERSION}.tgz
`;

/** A fresh consumer package next to `effect-journal-conformance/`, a checkout of this repo (dist/ built), installed the guide's way. */
export async function createPackedConsumer(): Promise<PackedConsumer> {
  const consumer = await createBareConsumer();
  try {
    await installAsTheGuideSays(consumer, INSTALL_COMMANDS);
    return consumer;
  } catch (error) {
    await consumer.cleanup();
    throw error;
  }
}

/** The consumer before the install: an empty package beside the checkout. */
export async function createBareConsumer(): Promise<PackedConsumer> {
  if (!existsSync(join(REPO, 'dist', 'index.js'))) throw new Error('dist/ is missing: run npm run build (npm test does) first');
  const root = await dir({ prefix: 'ejc-consumer-', unsafeCleanup: true });
  try {
    const path = join(root.path, 'consumer');
    const tmpdir = join(root.path, 'tmp');
    await mkdir(path);
    await mkdir(tmpdir);
    // The guide's layout: the checkout sits next to the project as ../effect-journal-conformance.
    await symlink(REPO, join(root.path, 'effect-journal-conformance'), 'dir');
    await writeFile(join(path, 'package.json'), `${JSON.stringify({ name: 'ejc-consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
    return { path, tmpdir, env: consumerEnv(tmpdir), cleanup: () => root.cleanup() };
  } catch (error) {
    await root.cleanup();
    throw error;
  }
}

/**
 * Runs the install commands as written. Dependencies come from the npm cache that `npm ci` filled (network only
 * for what is missing), and install scripts are skipped, because better-sqlite3's would download a prebuilt binary:
 * the consumer gets this repo's build of the same pinned version instead, and this repo's vitest.
 */
export async function installAsTheGuideSays(consumer: PackedConsumer, commands: string): Promise<void> {
  const env = { ...consumer.env, npm_config_prefer_offline: 'true', npm_config_ignore_scripts: 'true' };
  await execa('sh', ['-e', '-c', commands], { cwd: consumer.path, env, extendEnv: false, stdin: 'ignore' });
  await reuseNativeAndVitest(consumer.path);
}

/** The environment of a command run "by the user" in the consumer, without the outer vitest's variables. */
export function consumerEnv(tmpdir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(__)?VITEST|^TEST$|^NODE_ENV$|^NODE_OPTIONS$/.test(k)) continue;
    env[k] = v;
  }
  // npm_config_yes=false: `npx ejc` runs the installed bin or fails; it never fetches a registry package of that name.
  return { ...env, TMPDIR: tmpdir, CI: 'true', NO_COLOR: '1', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', npm_config_yes: 'false' };
}

// The consumer gets this repo's compiled better-sqlite3 binary (same pinned version) when it installed the optional
// package (not with --omit=optional), and this repo's vitest.
async function reuseNativeAndVitest(path: string): Promise<void> {
  const modules = join(path, 'node_modules');
  if (existsSync(join(modules, 'better-sqlite3'))) {
    await cp(join(REPO, 'node_modules', 'better-sqlite3', 'build'), join(modules, 'better-sqlite3', 'build'), { recursive: true });
  }
  await symlink(join(REPO, 'node_modules', 'vitest'), join(modules, 'vitest'), 'dir');
  await mkdir(join(modules, '.bin'), { recursive: true });
  if (!(await readdir(join(modules, '.bin'))).includes('vitest')) {
    await symlink(join('..', 'vitest', 'vitest.mjs'), join(modules, '.bin', 'vitest'));
  }
}
