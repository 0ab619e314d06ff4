// The README commands' setup step: installs what is missing as root with apt-get, else names the command and stops.
import { copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { dir } from 'tmp-promise';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/setup-machine.sh', import.meta.url));
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { scripts: Record<string, string>; files: string[] };

/**
 * A PATH directory holding only `id` and `node` (what the script runs) and, when asked, the real apt-get: strace,
 * faketime, chromium, xmllint and a compiler are absent.
 */
async function bareBin(root: string, withApt: boolean): Promise<string> {
  const bin = join(root, 'bin');
  await mkdir(bin);
  await symlink(execFileSync('sh', ['-c', 'command -v id'], { encoding: 'utf8' }).trim(), join(bin, 'id'));
  await symlink(process.execPath, join(bin, 'node'));
  if (withApt) await symlink(execFileSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).trim(), join(bin, 'apt-get'));
  return bin;
}

// Run in the checkout, as npm runs it: its better-sqlite3 is built, so no compiler is asked for.
async function run(purpose: string, env: Record<string, string>, asUser: boolean, script = SCRIPT, cwd = REPO) {
  const argv = asUser ? [execFileSync('sh', ['-c', 'command -v setpriv'], { encoding: 'utf8' }).trim(), '--reuid=65534', '--regid=65534', '--clear-groups', '/bin/sh', script, purpose] : ['/bin/sh', script, purpose];
  return execa(argv[0]!, argv.slice(1), { cwd, env, extendEnv: false, reject: false, stdin: 'ignore' });
}

describe('scripts/setup-machine.sh', () => {
  it('is what both README commands run first, and what the package ships', () => {
    expect(PACKAGE.scripts['preconformance']).toBe('sh scripts/setup-machine.sh conformance');
    expect(PACKAGE.scripts['pretest']).toBe('sh scripts/setup-machine.sh test');
    expect(PACKAGE.files).toContain('scripts/setup-machine.sh');
  });

  it('without apt-get: names the missing packages, says what to do, and stops (exit 1)', async () => {
    const tmp = await dir({ unsafeCleanup: true });
    try {
      const bin = await bareBin(tmp.path, false);
      const r = await run('test', { PATH: bin }, false);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toContain('this machine lacks strace faketime chromium libxml2-utils and has no apt-get to install them');
      expect(r.stderr).toContain('EJC_SKIP_SETUP=1');
      // The conformance run needs only the run's own tools.
      const c = await run('conformance', { PATH: bin }, false);
      expect(c.exitCode).toBe(1);
      expect(c.stderr).toContain('this machine lacks strace faketime and has no apt-get');
    } finally {
      await tmp.cleanup();
    }
  });

  it('where better-sqlite3 has no native build (npm found no compiler), asks for python3, make and g++ first', async () => {
    const tmp = await dir({ unsafeCleanup: true });
    try {
      const bin = await bareBin(tmp.path, false);
      // A checkout with no node_modules: better-sqlite3 does not load there, as after an install that could not build it.
      const checkout = join(tmp.path, 'checkout');
      await mkdir(checkout);
      await writeFile(join(checkout, 'package.json'), JSON.stringify({ name: 'effect-journal-conformance' }));
      const r = await run('conformance', { PATH: bin }, false, SCRIPT, checkout);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toContain('this machine lacks python3 make g++ strace faketime and has no apt-get');
      // A project that installed ejc without it (a --cmd journal) is not asked for a compiler.
      const project = join(tmp.path, 'project');
      await mkdir(project);
      await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'my-journal' }));
      const p = await run('conformance', { PATH: bin }, false, SCRIPT, project);
      expect(p.exitCode).toBe(1);
      expect(p.stderr).toContain('this machine lacks strace faketime and has no apt-get');
    } finally {
      await tmp.cleanup();
    }
  });

  it('not root: prints the exact sudo apt-get command and stops without installing (exit 1)', async () => {
    const tmp = await dir({ unsafeCleanup: true });
    try {
      const bin = await bareBin(tmp.path, true);
      // A copy every user can read: the checkout may be private to root.
      const script = join(tmp.path, 'setup-machine.sh');
      await copyFile(SCRIPT, script);
      execFileSync('chmod', ['-R', 'a+rX', tmp.path]);
      const r = await run('conformance', { PATH: bin }, true, script);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toContain('this machine lacks strace faketime, and installing them needs root. Run:\n  sudo apt-get update && sudo apt-get install -y --no-install-recommends strace faketime\n');
      expect(r.stderr).not.toContain('installing strace');
    } finally {
      await tmp.cleanup();
    }
  });

  it('EJC_SKIP_SETUP=1 goes ahead without them, saying the run will name what it could not test; a bad purpose is a usage error', async () => {
    const tmp = await dir({ unsafeCleanup: true });
    try {
      const bin = await bareBin(tmp.path, false);
      const skip = await run('test', { PATH: bin, EJC_SKIP_SETUP: '1' }, false);
      expect(skip.exitCode).toBe(0);
      expect(skip.stderr).toContain('not checking the machine; the run names every dimension it could not test');
      const bad = await run('everything', { PATH: bin }, false);
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr).toContain('usage: scripts/setup-machine.sh conformance|test');
    } finally {
      await tmp.cleanup();
    }
  });

  it('on a machine that has everything (as after npm test\'s own setup step), exits 0 and prints nothing', async () => {
    const r = await run('test', { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }, false);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
  });
});
