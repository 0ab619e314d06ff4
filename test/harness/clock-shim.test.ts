// The clock shim ejc builds where libfaketime is missing moves the wall clock of Node, CPython and SQLite, and only it.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// Pretend libfaketime is absent before the library is first chosen (it is cached per process).
process.env['EJC_LIBFAKETIME'] = 'none';
const { clockLibrary } = await import('../../harness/clock/clock-library.js');

const HOUR = 3_600_000;
const hasCc = spawnSync('cc', ['--version']).status === 0;
const hasSqlite = spawnSync('sqlite3', ['-version']).status === 0;

/** The wall-clock milliseconds `argv` prints under the shim with FAKETIME, and the real time around the call. */
function shiftedNow(faketime: string | null, argv: readonly string[]): { printed: number; before: number; after: number } {
  const lib = clockLibrary();
  const env: NodeJS.ProcessEnv = { ...process.env, LD_PRELOAD: lib!.path };
  if (faketime !== null) env['FAKETIME'] = faketime;
  const before = Date.now();
  const out = spawnSync(argv[0]!, argv.slice(1), { env, encoding: 'utf8', timeout: 60_000 });
  const after = Date.now();
  expect(out.status, out.stderr).toBe(0);
  return { printed: Number(out.stdout.trim()), before, after };
}

function expectShift(r: { printed: number; before: number; after: number }, by: number, slackMs = 1_500): void {
  expect(r.printed).toBeGreaterThanOrEqual(r.before + by - slackMs);
  expect(r.printed).toBeLessThanOrEqual(r.after + by + slackMs);
}

describe.skipIf(!hasCc)('the clock shim (no libfaketime)', () => {
  it('is built with cc and chosen when libfaketime is absent', () => {
    expect(clockLibrary()).toMatchObject({ kind: 'shim' });
  });

  it('moves Node’s Date by +25h and -90m, and leaves it alone without FAKETIME', () => {
    const node = [process.execPath, '-e', 'console.log(Date.now())'];
    expectShift(shiftedNow('+25h', node), 25 * HOUR);
    expectShift(shiftedNow('-90m', node), -1.5 * HOUR);
    expectShift(shiftedNow('+2d', node), 48 * HOUR);
    expectShift(shiftedNow(null, node), 0);
  });

  it('keeps the monotonic clock real (timeouts never jump)', () => {
    // performance.now() counts from the process's own start: under a moved wall clock it stays a few seconds at most.
    const r = shiftedNow('+25h', [process.execPath, '-e', 'console.log(Math.round(performance.now()))']);
    expect(r.printed).toBeLessThan(60_000);
  });

  it('moves CPython’s time.time()', () => {
    const py = spawnSync('python3', ['--version']);
    if (py.status !== 0) return;
    expectShift(shiftedNow('+25h', ['python3', '-c', 'import time; print(int(time.time() * 1000))']), 25 * HOUR);
  });

  it.skipIf(!hasSqlite)('moves SQLite’s now', () => {
    // Whole seconds (the CLI may predate 'subsec'): a second more of slack either side.
    const r = shiftedNow('+25h', ['sqlite3', ':memory:', "select strftime('%s', 'now') * 1000"]);
    expectShift(r, 25 * HOUR, 2_500);
  });
});

describe.skipIf(!hasCc)('a clock jump without libfaketime', () => {
  // Trial 0 of seed 1 restarts the journal 216 h later (bites-catches.json: realistic/open-expires-old-commits).
  const explore = (env: NodeJS.ProcessEnv) => {
    const ejc = new URL('../../dist/bin/ejc.js', import.meta.url).pathname;
    const impl = new URL('../broken/realistic/open-expires-old-commits.mjs', import.meta.url).pathname;
    const out = spawnSync(process.execPath, [ejc, 'explore', '--impl', impl, '--trials', '1', '--max-shrinks', '0', '--jobs', '1'], {
      env: { ...process.env, EJC_LIBFAKETIME: 'none', ...env },
      encoding: 'utf8',
      timeout: 240_000,
    });
    return { status: out.status, text: out.stdout + out.stderr };
  };

  it('exploration still catches a journal that deletes committed rows a week old', () => {
    const r = explore({});
    expect(r.text).toMatch(/clock moved \+\d+h/);
    expect(r.text).toContain('retention.resumable');
    expect(r.status).toBe(1);
  });

  it('and the shim is what catches it: with no way to move the clock the same trial passes', () => {
    const r = explore({ EJC_CLOCK_SHIM: 'off' });
    expect(r.text).not.toMatch(/clock moved \+\d+h/);
    expect(r.status).toBe(0);
  });
});
