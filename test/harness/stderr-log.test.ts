// A driver's stderr: the kept log is capped with a marker where it was cut and the count of bytes dropped; the tail stays bounded.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDriver } from '../../harness/driver/index.js';
import { StderrRing } from '../../harness/driver/stderr-log.js';
import { createTrialDir, type TrialDir } from '../../harness/trial-dir.js';
import { DriverPool, fakeLaunch, root } from './helpers.js';

const pool = new DriverPool();
let trial: TrialDir;
beforeEach(async () => {
  trial = await createTrialDir();
});
afterEach(async () => {
  await pool.killAll();
  await trial.cleanup();
});

describe('StderrRing', () => {
  it('keeps the log up to its limit, marks the cut and counts what it dropped', () => {
    const file = join(trial.path, 'driver.stderr.log');
    const ring = new StderrRing(file, 50, 1000);
    for (let i = 0; i < 50; i++) ring.push(Buffer.from(`${String(i).padStart(3, '0')} ${'x'.repeat(95)}\n`));
    ring.finish();
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('000 x')).toBe(true);
    expect(ring.logged).toEqual({ written: 1000, dropped: 4000 });
    expect(text).toContain('[ejc] stderr log cut here: it reached its limit of 1000 bytes; the rest is dropped');
    expect(text.endsWith('[ejc] 4000 bytes of stderr were dropped after the cut\n')).toBe(true);
    // The in-memory tail is not cut: the last lines are what a failure report needs.
    expect(ring.tail(2)).toEqual([`048 ${'x'.repeat(95)}`, `049 ${'x'.repeat(95)}`]);
  });

  it('bounds the tail: line count, line length, and an endless line without a newline', () => {
    const ring = new StderrRing(undefined, 10);
    for (let i = 0; i < 100; i++) ring.push(`line ${i}\n`);
    ring.push('y'.repeat(10_000) + '\n');
    for (let i = 0; i < 40; i++) ring.push('z'.repeat(64 * 1024));
    const tail = ring.tail(1000);
    expect(tail.length).toBeLessThanOrEqual(11);
    for (const line of tail) expect(line.length).toBeLessThanOrEqual(4097);
  });
});

describe('a driver flooding stderr', () => {
  it('never grows its kept log past the limit, whatever it writes', async () => {
    const file = join(trial.path, 'flood.stderr.log');
    const limit = 256 * 1024;
    const driver = pool.track(await startDriver(fakeLaunch('stderr-flood'), { label: 'flood', cwd: root, timeoutMs: 60_000, stderrFile: file, stderrFileLimit: limit }));
    const pending = driver.call('checkpoint', {}).catch(() => undefined);
    // Wait for the condition, not the clock: the log was cut and the flood went on well past it.
    await until(() => readFileSync(file, 'utf8').includes('stderr log cut here') && driver.stderrTail(1).length > 0);
    const floodedPast = statSync(file).size;
    // The flood goes on well past the cut: its chunks are numbered, 64 KiB each. Dropped bytes are at least
    // the chunks written before the one seen, less the kept limit, so wait for enough of them to exceed 4×limit.
    await until(() => Number(/flood chunk (\d+)/.exec(driver.stderrTail(1)[0] ?? '')?.[1] ?? 0) > (5 * limit) / (64 * 1024) + 2);
    await driver.kill();
    await pending;
    const text = readFileSync(file, 'utf8');
    expect(statSync(file).size).toBeLessThan(limit + 300);
    expect(statSync(file).size).toBeGreaterThanOrEqual(floodedPast);
    const dropped = Number(/\[ejc\] (\d+) bytes of stderr were dropped after the cut\n$/.exec(text)?.[1]);
    expect(dropped).toBeGreaterThan(4 * limit);
    expect(driver.stderrTail(500).join('\n').length).toBeLessThan(500 * 4100);
  });
});

async function until(condition: () => boolean, maxMs = 60_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (!holds(condition)) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function holds(condition: () => boolean): boolean {
  try {
    return condition();
  } catch {
    // Not there yet (the log file is created by the first write).
    return false;
  }
}
