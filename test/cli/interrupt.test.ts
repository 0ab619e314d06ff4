// SIGINT, SIGTERM and SIGHUP at seeded random moments of a real `ejc run` (after N progress lines and a random delay,
// to the process or to its whole group as Ctrl-C does): no trial directory under the run's own TMPDIR and no process
// carrying the run's tag may be left once it has exited. Reproduce one case by its seed and index in the test name.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EJC } from './ejc-process.js';
import { killOwn, newTag, ownProcesses, TAG_VAR } from '../harness/own-processes.js';

const SEED = 27;
const CASES = 8;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const CODES: Record<(typeof SIGNALS)[number], number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
// Short scenarios with kills, restarts, target ledgers and planted secrets, on two lanes.
const SCENARIOS = ['cp01.prepare-before-commit', 'cp02.after-prepare.tier3', 'cp03.after-dispatch.tier3', 'secrets.args-never-on-disk', 'cp04.after-settle', 'cp05.after-tool-result'];

// mulberry32: every moment below comes from SEED.
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(SEED);
const moments = Array.from({ length: CASES }, (_, i) => ({
  i,
  signal: SIGNALS[i % SIGNALS.length]!,
  afterLines: Math.floor(random() * 4),
  delayMs: Math.floor(random() * 1500),
  group: random() < 0.5,
}));

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ejc-interrupt-test-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe(`ejc run interrupted at random moments (seed ${SEED})`, () => {
  it.each(moments)('case $i: $signal after $afterLines progress line(s) and $delayMs ms (to the group: $group) leaves nothing', async (m) => {
    const tag = newTag('interrupt');
    const tmp = mkdtempSync(join(root, `case-${m.i}-`));
    const args = [EJC, 'run', ...SCENARIOS.flatMap((s) => ['--scenario', s]), '--jobs', '2', '--out', join(tmp, 'out')];
    // Its own group, so a group signal reaches its lanes and drivers' parents as Ctrl-C would, and nothing of the test.
    const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CI: 'true', [TAG_VAR]: tag, TMPDIR: join(tmp) } });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    let stderr = '';
    let lines = 0;
    let sent = false;
    const send = (): void => {
      if (sent) return;
      sent = true;
      setTimeout(() => {
        try {
          process.kill(m.group ? -child.pid! : child.pid!, m.signal);
        } catch {
          // Already finished: the run then had nothing left to clean up, which is checked alike.
        }
      }, m.delayMs);
    };
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      lines = stderr.split('\n').filter((l) => /^\[\d+\/\d+\] /.test(l)).length;
      if (lines >= m.afterLines) send();
    });
    if (m.afterLines === 0) send();
    try {
      const end = await exited;
      // Interrupted (the exit code of its signal; or ended by the signal itself when it came before node had loaded the
      // harness, which then had made nothing) or, when the moment fell after the end, finished.
      if (end.signal !== null) expect(end.signal).toBe(m.signal);
      else if (end.code !== 0) expect(end.code, stderr).toBe(CODES[m.signal]);
      expect(ownProcesses(tag), stderr).toEqual([]);
      expect(readdirSync(tmp).filter((f) => f !== 'out'), stderr).toEqual([]);
      expect(stderr).not.toMatch(/RangeError|    at /);
    } finally {
      await killOwn(tag);
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
