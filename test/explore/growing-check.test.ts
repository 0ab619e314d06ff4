// The model checked after every step of a trial walks only what the step added, and answers exactly what a walk of the
// whole history answers: on every prefix of real generated trials' histories, passing and failing, concurrent ones too.
import { describe, expect, it } from 'vitest';
import { checkHistory, GrowingHistoryCheck } from '../../harness/model/check-history.js';
import type { HistoryEvent } from '../../harness/model/history.js';
import { runStream } from '../../harness/explore/explorer.js';
import { featuresFor } from '../../harness/explore/features.js';
import { defaultLaunch, probe, resolveForSpawn } from '../../runner/run-conformance.js';
import type { Launch } from '../../reports/schema.js';

const realistic = (await import(new URL('../broken/realistic/index.mjs', import.meta.url).href)) as { realisticModule: (name: string) => string };

async function histories(launch: Launch, trials: number): Promise<Array<{ history: HistoryEvent[]; config: Parameters<typeof checkHistory>[1] }>> {
  const resolved = resolveForSpawn(launch);
  const hello = await probe(resolved, 60_000);
  const run = { launch: resolved, timeoutMs: 60_000, capabilities: hello.capabilities, features: featuresFor(hello.capabilities), keep: 'none' as const };
  const done = await runStream(run, { seed: 1, trials, deadline: null, jobs: 1, shard: null, idOf: (i) => `growing.${i}` });
  return done.map((d) => ({ history: [...(d.result.context.history ?? [])], config: { tierMode: hello.capabilities.tierMode, gate: hello.capabilities.gate } }));
}

// Every prefix, in order, through one growing check, against a fresh walk of that prefix.
function compareEveryPrefix(history: readonly HistoryEvent[], config: Parameters<typeof checkHistory>[1]): { rewalks: number; failed: boolean } {
  const growing = new GrowingHistoryCheck(config);
  for (let n = 0; n <= history.length; n++) {
    const prefix = history.slice(0, n);
    expect(growing.check(prefix), `prefix of ${n} events`).toEqual(checkHistory(prefix, config));
  }
  return { rewalks: growing.rewalks, failed: checkHistory(history, config).failure !== null };
}

describe('GrowingHistoryCheck', () => {
  it('answers as checkHistory on every prefix of passing and failing generated trials', async () => {
    const all = [...(await histories(defaultLaunch(), 4)), ...(await histories({ kind: 'module', module: realistic.realisticModule('session-resolve-not-durable'), options: {} }, 2))];
    const outcomes = all.map(({ history, config }) => compareEveryPrefix(history, config));
    // Both kinds of history were compared: a failing one (the broken journal's trial 2) and passing ones.
    expect(outcomes.some((o) => o.failed)).toBe(true);
    expect(outcomes.some((o) => !o.failed)).toBe(true);
    // A prefix cut inside a concurrent segment made the check walk again from the start, and still agree.
    expect(outcomes.reduce((n, o) => n + o.rewalks, 0)).toBeGreaterThan(0);
  }, 300_000);
});
