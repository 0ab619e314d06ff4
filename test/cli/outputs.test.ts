// Output paths are checked before the first trial (one-line error, exit 3, nothing lost), numeric flags are
// range-checked, and a closed stdout never changes the exit code.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { dir } from 'tmp-promise';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCommand } from '../../bin/args.js';
import { RUN_FLAGS, runOptions } from '../../bin/cmd-run.js';
import { checkOutputs, type OutputTarget } from '../../bin/output-paths.js';
import { writeReportFile } from '../../reports/write-report.js';
import { buildReport } from '../reports/fixture.js';
import { EJC, ejc } from './ejc-process.js';

let tmp: { path: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  tmp = await dir({ unsafeCleanup: true });
});
afterEach(async () => {
  await tmp.cleanup();
});

// A refused run is one line on stderr naming the flag, exit 3, and no trial ran (no progress line).
function expectRefused(r: { exitCode: number; stdout: string; stderr: string }, message: RegExp): void {
  expect(r.exitCode, r.stderr).toBe(3);
  expect(r.stdout).toBe('');
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toContain('[1/');
}

const out = (d: string): OutputTarget => ({ flag: '--out', given: d, dir: resolve(d), file: resolve(d, 'report.json') });
const junit = (f: string): OutputTarget => ({ flag: '--junit', given: f, file: resolve(f) });

describe('output paths, checked before the first trial', () => {
  it('through ejc run and merge: the same file twice, an input overwritten, a special file system; every file there is kept', async () => {
    const outDir = join(tmp.path, 'out');
    const older = await writeReportFile(outDir, buildReport());
    const before = readFileSync(older, 'utf8');
    expectRefused(await ejc(['run', '--scenario', 'cp04.after-settle', '--out', outDir, '--force', '--junit', join(outDir, 'report.json')]), /^ejc: output_invalid: --junit .*report\.json is the same file as --out .*; give each output its own file name$/m);
    expectRefused(await ejc(['merge', older, '--out', outDir, '--force']), /--out .* would overwrite the shard report file/);
    expect(readFileSync(older, 'utf8')).toBe(before);
    // Before this check, --out /proc/x spun forever.
    expectRefused(await ejc(['run', '--out', '/proc/ejc-out']), /--out \/proc\/ejc-out is in \/proc on a special file system \(proc\)/);
    expect(existsSync('/proc/ejc-out')).toBe(false);
  });

  it('refuses the same file by another spelling or a hard link, and an output over an input', async () => {
    const d = join(tmp.path, 'out');
    await expect(checkOutputs([out(d), junit(join(tmp.path, 'out', '.', 'report.json'))])).rejects.toThrow(/is the same file as --out/);
    const expectFile = join(tmp.path, 'known.txt');
    writeFileSync(expectFile, 'cp02.after-prepare.tier3\n');
    await expect(checkOutputs([junit(expectFile)], [{ flag: '--expect-failures', path: expectFile }])).rejects.toThrow(/--junit .* would overwrite the --expect-failures file/);
    expect(readFileSync(expectFile, 'utf8')).toBe('cp02.after-prepare.tier3\n');
    await execa('ln', [expectFile, join(tmp.path, 'link.xml')]);
    await expect(checkOutputs([junit(join(tmp.path, 'link.xml'))], [{ flag: '--expect-failures', path: expectFile }])).rejects.toThrow(/would overwrite/);
    await expect(checkOutputs([out(d), junit(join(d, 'junit.xml'))])).resolves.toBeUndefined();
    expect(existsSync(d)).toBe(true);
  });

  it('refuses a file where a directory is wanted, a directory where a file is wanted, and kernel file systems', async () => {
    const file = join(tmp.path, 'plain-file');
    writeFileSync(file, 'x');
    await expect(checkOutputs([out(file)])).rejects.toThrow(/--out .*plain-file is a file, and --out takes a directory/);
    await expect(checkOutputs([junit(tmp.path)])).rejects.toThrow(/--junit .* is a directory; give a file path such as/);
    mkdirSync(join(tmp.path, 'd', 'report.json'), { recursive: true });
    await expect(checkOutputs([out(join(tmp.path, 'd'))])).rejects.toThrow(/report\.json is a directory/);
    await expect(checkOutputs([junit(join(file, 'junit.xml'))])).rejects.toThrow(/plain-file is a file, so no directory can be made there/);
    await expect(checkOutputs([junit('/sys/ejc.xml')])).rejects.toThrow(/special file system \(sys\)/);
    await expect(checkOutputs([junit('/dev/null')])).rejects.toThrow(/special file system \(dev\)/);
    // /dev/shm is an ordinary tmpfs, the one place under /dev an output may go.
    const shm = `/dev/shm/ejc-output-check-${process.pid}-${Date.now()}`;
    try {
      await expect(checkOutputs([out(shm)])).resolves.toBeUndefined();
    } finally {
      rmSync(shm, { recursive: true, force: true });
    }
  });
});

describe('numeric flags are range-checked', () => {
  it('a timeout past what a timer holds is refused through ejc run (it used to wrap to 1 ms)', async () => {
    expectRefused(await ejc(['run', '--timeout', String(2 ** 31)]), /--timeout must be an integer from 1 to 2147483647, got "2147483648"/);
  });

  it.each([
    [['--seed', String(2 ** 32)], /--seed must be an integer from 0 to 4294967295/],
    [['--jobs', '100000'], /--jobs must be an integer from 1 to 256/],
    [['--jobs', '0'], /--jobs must be an integer from 1 to 256/],
    [['--timeout', '1e3'], /--timeout must be an integer/],
  ])('%s', async (flags, message) => {
    await expect(runOptions(parseCommand('run', flags, RUN_FLAGS, { min: 0, max: 0 }), ['run', ...flags])).rejects.toThrow(message);
  });

  it('accepts the bounds', async () => {
    const flags = ['--seed', String(2 ** 32 - 1), '--timeout', String(2 ** 31 - 1), '--jobs', '256'];
    const options = await runOptions(parseCommand('run', flags, RUN_FLAGS, { min: 0, max: 0 }), ['run', ...flags]);
    expect([options.seed, options.timeoutMs, options.jobs]).toEqual([2 ** 32 - 1, 2 ** 31 - 1, 256]);
  });
});

describe('a closed stdout', () => {
  it('does not change the exit code of a conformant run (ejc run | head)', async () => {
    const trials = join(tmp.path, 'trials');
    mkdirSync(trials);
    const child = execa(process.execPath, [EJC, 'run', '--scenario', 'cp04.after-settle'], { reject: false, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', env: { CI: 'true', TMPDIR: trials } });
    // The reader goes away before ejc writes a byte: every write to stdout meets EPIPE.
    child.stdout.destroy();
    const result = await child;
    expect(result.exitCode, String(result.stderr)).toBe(0);
    expect(String(result.stderr)).toContain('[1/1] cp04.after-settle passed');
    expect(String(result.stderr)).not.toMatch(/EPIPE|internal error/);
    expect(readdirSync(trials)).toEqual([]);
  });
});
