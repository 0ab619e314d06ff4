// The implementation fingerprint, the harness build hash and the environment record, checked against independent tools.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { dir } from 'tmp-promise';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeEnvironment } from '../../reports/environment.js';
import { expandGlob } from '../../reports/file-glob.js';
import { fingerprintDigest, fingerprintLaunch, REFERENCE_ADAPTER_NAMES } from '../../reports/fingerprint.js';
import { buildDir, harnessBuild } from '../../reports/harness-build.js';
import { referenceAdapterPath } from '../../runner/run-conformance.js';

let tmp: { path: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  tmp = await dir({ unsafeCleanup: true });
  mkdirSync(join(tmp.path, 'src', 'lib'), { recursive: true });
  mkdirSync(join(tmp.path, 'node_modules', 'dep'), { recursive: true });
  writeFileSync(join(tmp.path, 'adapter.mjs'), 'export function createJournal() {}\n');
  writeFileSync(join(tmp.path, 'src', 'store.js'), 'store\n');
  writeFileSync(join(tmp.path, 'src', 'lib', 'codec.js'), 'codec\n');
  writeFileSync(join(tmp.path, 'src', 'lib', 'notes.md'), 'notes\n');
  writeFileSync(join(tmp.path, 'node_modules', 'dep', 'index.js'), 'dep\n');
  writeFileSync(join(tmp.path, 'journal.py'), 'print("hi")\n');
  writeFileSync(join(tmp.path, 'conf.json'), '{}\n');
});
afterEach(async () => {
  await tmp.cleanup();
});

const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('fingerprintLaunch', () => {
  it('binds an --impl module and its --impl-files by content, with paths relative to the invoking directory', () => {
    const fp = fingerprintLaunch({ kind: 'module', module: './adapter.mjs', options: {} }, { cwd: tmp.path, implFiles: ['src/**/*.js'] });
    expect(fp.files.map((f) => [f.path, f.role])).toEqual([
      ['adapter.mjs', 'adapter'],
      ['src/lib/codec.js', 'loaded'],
      ['src/store.js', 'loaded'],
    ]);
    expect(fp.files[0]!.sha256).toBe(sha(join(tmp.path, 'adapter.mjs')));
    expect(fp.digest).toBe(fingerprintDigest(fp.files));
    // One byte of a loaded file changes the digest.
    writeFileSync(join(tmp.path, 'src', 'store.js'), 'store!\n');
    const changed = fingerprintLaunch({ kind: 'module', module: './adapter.mjs', options: {} }, { cwd: tmp.path, implFiles: ['src/**/*.js'] });
    expect(changed.digest).not.toBe(fp.digest);
  });

  it('binds a --cmd by its resolved executable and the files named on its line', () => {
    const fp = fingerprintLaunch({ kind: 'command', command: 'exec env PYTHONUNBUFFERED=1 node journal.py --config=conf.json -v missing.txt' }, { cwd: tmp.path, implFiles: [] });
    expect(fp.files.map((f) => [f.path, f.role])).toEqual([
      [realpathSync(process.execPath), 'executable'],
      ['conf.json', 'argument'],
      ['journal.py', 'argument'],
    ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)));
    expect(() => fingerprintLaunch({ kind: 'command', command: 'no-such-program-ejc x' }, { cwd: tmp.path, implFiles: [] })).toThrow(/starts no-such-program-ejc, which is not on PATH/);
  });

  it('binds the bundled reference journal by the files its drivers load: the compiled adapter and its imports, or the current bundle', () => {
    const compiled = join(dirname(referenceAdapterPath()), 'adapter.js');
    const fp = fingerprintLaunch({ kind: 'module', module: 'ejc:reference', options: {} }, { cwd: tmp.path, implFiles: [], referenceAdapter: compiled });
    const paths = fp.files.map((f) => f.path);
    expect(paths).toContain('ejc:reference-impl/journal.js');
    expect(paths).toContain('ejc:harness/canonical-json.js');
    expect(paths.every((p) => p.startsWith('ejc:'))).toBe(true);
    expect(fp.files.filter((f) => f.role === 'adapter').map((f) => f.path)).toEqual(['ejc:reference-impl/adapter.js']);

    const bundle = referenceAdapterPath();
    expect(bundle.endsWith('adapter.bundle.cjs')).toBe(true);
    const bundled = fingerprintLaunch({ kind: 'module', module: 'ejc:reference', options: {} }, { cwd: tmp.path, implFiles: [], referenceAdapter: bundle });
    expect(bundled.files.map((f) => [f.path, f.role])).toEqual([['ejc:reference-impl/adapter.bundle.cjs', 'adapter']]);
    expect(bundled.files[0]!.sha256).toBe(sha(bundle));
    expect(REFERENCE_ADAPTER_NAMES).toEqual(['ejc:reference-impl/adapter.bundle.cjs', 'ejc:reference-impl/adapter.bundle.js', 'ejc:reference-impl/adapter.js']);
  });

  it('expands globs deterministically, skips node_modules unless named, and names a glob that matches nothing', () => {
    expect(expandGlob('src/**/*.{js,md}', tmp.path).map((p) => p.slice(tmp.path.length + 1))).toEqual(['src/lib/codec.js', 'src/lib/notes.md', 'src/store.js']);
    expect(expandGlob('**/*.js', tmp.path).map((p) => p.slice(tmp.path.length + 1))).toEqual(['src/lib/codec.js', 'src/store.js']);
    expect(expandGlob('node_modules/**/*.js', tmp.path)).toHaveLength(1);
    expect(() => expandGlob('lib/*.so', tmp.path)).toThrow(/--impl-files lib\/\*\.so matches no file/);
  });
});

describe('harnessBuild', () => {
  it('equals the documented sha256sum pipeline over dist/', () => {
    const build = harnessBuild();
    const shell = execFileSync('sh', ['-c', "(cd \"$1\" && find . \\( -name '*.js' -o -name '*.cjs' \\) -type f | sed 's|^\\./||' | LC_ALL=C sort | xargs sha256sum) | sha256sum", 'sh', buildDir()], { encoding: 'utf8' });
    expect(build.digest).toBe(shell.split(' ')[0]);
    expect(build.files).toBeGreaterThan(50);
  });
});

describe('describeEnvironment', () => {
  it('records the runtime, SQLite, kernel, the trial file system and strace as the tools themselves report them', () => {
    const env = describeEnvironment(null);
    expect(env.node).toBe(process.version);
    expect(env.betterSqlite3).toBe('12.11.1');
    expect(env.sqlite).toMatch(/^3\.\d+\.\d+$/);
    expect(env.os.release).toBe(execFileSync('uname', ['-r'], { encoding: 'utf8' }).trim());
    let findmnt: string | null = null;
    try {
      findmnt = execFileSync('findmnt', ['-n', '-o', 'FSTYPE', '--target', realpathSync(process.env['TMPDIR'] ?? '/tmp')], { encoding: 'utf8' }).trim();
    } catch {
      // util-linux absent: nothing independent to compare with
    }
    if (findmnt !== null) expect(env.trialFs).toBe(findmnt);
    let strace: string | null = null;
    try {
      strace = /version\s+(\S+)/.exec(execFileSync('strace', ['-V'], { encoding: 'utf8' }))?.[1] ?? null;
    } catch {
      // no strace on this machine
    }
    expect(env.strace).toBe(strace);
    expect(describeEnvironment(3).shard).toBe(3);
  });
});
