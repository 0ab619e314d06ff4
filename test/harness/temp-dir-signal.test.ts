// A signal while the harness is making a temporary directory (the TMPDIR probe, a trial directory) leaves none behind:
// the directory and its registration come in one synchronous step. An asynchronous mkdtemp left one when SIGHUP came
// while a pool thread was creating it (interrupt.test.ts saw `tmp-sVgP68` so in CI).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../../dist/harness/', import.meta.url));
// Makes and removes directories without pause, so whenever the signal comes, one is being made or removed.
const LOOP = `
const { checkTrialRoot } = await import(${JSON.stringify(join(DIST, 'environment.js'))});
const { createTrialDir } = await import(${JSON.stringify(join(DIST, 'trial-dir.js'))});
const { installSignalCleanup } = await import(${JSON.stringify(join(DIST, 'driver/registry.js'))});
installSignalCleanup();
let n = 0;
for (;;) {
  await checkTrialRoot();
  const trial = await createTrialDir();
  await trial.cleanup();
  if (++n === 50) process.stdout.write('looping\\n');
}`;

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ejc-temp-dir-signal-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a signal while temporary directories are being made', () => {
  // Twelve signals at spread moments (the delay after the loop is under way grows by 7 ms a case): each leaves nothing.
  it.each(Array.from({ length: 12 }, (_, i) => ({ i, signal: (['SIGHUP', 'SIGINT', 'SIGTERM'] as const)[i % 3]!, delayMs: 7 * i })))('case $i: $signal $delayMs ms into the loop', async ({ i, signal, delayMs }) => {
    const tmp = mkdtempSync(join(root, `case-${i}-`));
    const child = spawn(process.execPath, ['--input-type=module', '-e', LOOP], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: tmp } });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // Waits for the loop to be under way (the condition, not a clock), then for the case's own offset.
    await new Promise<void>((resolve) => child.stdout.on('data', (c: Buffer) => c.toString('utf8').includes('looping') && resolve()));
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    child.kill(signal);
    const code = await exited;
    expect(code, stderr).toBe({ SIGHUP: 129, SIGINT: 130, SIGTERM: 143 }[signal]);
    expect(readdirSync(tmp), stderr).toEqual([]);
  });
});
