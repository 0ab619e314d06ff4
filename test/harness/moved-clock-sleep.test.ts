// A driver started on a moved clock sleeps as it would on the real one: CPython's time.sleep (clock_nanosleep on the
// monotonic clock with an absolute deadline) failed with EINVAL under libfaketime 0.9.10 until ejc put its sleep fix in
// front of it; the wall clock still reads the moved time.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { clockLibrary, libfaketimeLibrary, movedClockEnv } from '../../harness/clock/clock-library.js';

const SLEEPER = 'import time, threading; t0 = time.monotonic(); time.sleep(0.05); threading.Event().wait(0.02); print(time.time(), time.monotonic() - t0)';

describe.skipIf(libfaketimeLibrary() === null || spawnSync('python3', ['--version']).status !== 0)('sleeping on a moved clock (libfaketime)', () => {
  it('puts the sleep fix in front of libfaketime', () => {
    const lib = clockLibrary();
    expect(lib?.kind).toBe('libfaketime');
    expect(lib?.front).toMatch(/sleep-fix-[0-9a-f]{12}\.so$/);
    expect(movedClockEnv(3)?.['LD_PRELOAD']?.split(':').slice(0, 2)).toEqual([lib!.front, lib!.path]);
  });

  it('builds the sleep fix once per checkout: every harness process preloads the same file', () => {
    // The built harness, as ejc runs: two processes, the second finding what the first (or an earlier run) compiled.
    const module = new URL('../../dist/harness/clock/clock-library.js', import.meta.url).href;
    const fronts = [1, 2].map(() => {
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(module)}); process.stdout.write(m.clockLibrary().front)`], { encoding: 'utf8', timeout: 60_000 });
      expect(r.status, r.stderr).toBe(0);
      return r.stdout;
    });
    expect(fronts[0]).toMatch(/\/dist\/native\/preload-sleep-fix-[0-9a-f]{12}\.so$/);
    expect(fronts[1]).toBe(fronts[0]);
  });

  it('lets python3 sleep and wait on the monotonic clock while its wall clock runs 25 hours ahead', () => {
    const before = Date.now();
    const r = spawnSync('python3', ['-c', SLEEPER], { env: { ...process.env, ...movedClockEnv(25) }, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    const [wall, slept] = r.stdout.trim().split(' ').map(Number) as [number, number];
    expect(wall * 1000 - before).toBeGreaterThan(25 * 3_600_000 - 60_000);
    expect(wall * 1000 - before).toBeLessThan(25 * 3_600_000 + 60_000);
    // The sleeps took their real time: not skipped, not stretched by the offset.
    expect(slept).toBeGreaterThanOrEqual(0.07);
    expect(slept).toBeLessThan(30);
  });
});
