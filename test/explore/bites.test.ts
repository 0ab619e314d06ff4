// Proof that exploration bites: with no scenario knowledge, every broken journal in test/broken/ is caught within a stated
// budget of generated trials (a misbehaving process is inconclusive, never passed); the catch rate and the median
// trials-to-catch are printed. EJC_EXPLORE_SHRINK=1 also shrinks every catch and proves its replay fails again.
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { probe, resolveForSpawn } from '../../harness/run-conformance.js';
import { featuresFor } from '../../harness/explore/features.js';
import { runStream, shrink, type ExploreRun } from '../../harness/explore/explorer.js';
import { mapPool } from '../../harness/pool.js';
import type { Launch } from '../../reports/schema.js';
import { DEFECT_TARGETS } from '../conformance/defect-targets.js';

/** Generated trials each broken journal must be caught within (seed 1, the default stream). */
export const CATCH_BUDGET = 12;
const SHRINK = process.env['EJC_EXPLORE_SHRINK'] === '1';
const BROKEN = fileURLToPath(new URL('../broken/broken-journal.mjs', import.meta.url));
const REALISTIC_INDEX = new URL('../broken/realistic/index.mjs', import.meta.url).href;

interface Target {
  readonly name: string;
  readonly launch: Launch;
}

const catalogue = (await import(new URL('../broken/broken-journal.mjs', import.meta.url).href)) as { DEFECTS: Record<string, unknown>; MISBEHAVIOURS: Record<string, unknown> };
const realistic = (await import(REALISTIC_INDEX)) as { REALISTIC: string[]; realisticModule: (name: string) => string };

const targets: Target[] = [
  ...Object.keys(catalogue.DEFECTS).map((d) => ({ name: d, launch: { kind: 'module' as const, module: BROKEN, options: { defect: d, ...(DEFECT_TARGETS.find((t) => t.defect === d)?.options ?? {}) } } })),
  ...realistic.REALISTIC.map((n) => ({ name: `realistic/${n}`, launch: { kind: 'module' as const, module: realistic.realisticModule(n), options: {} } })),
];

const caught = new Map<string, { trials: number; clause: string }>();

async function explorer(launch: Launch, timeoutMs: number): Promise<ExploreRun> {
  const spawn = resolveForSpawn(launch);
  const hello = await probe(spawn, timeoutMs);
  return { launch: spawn, timeoutMs, capabilities: hello.capabilities, features: featuresFor(hello.capabilities), keep: 'none' };
}

describe(`explore catches every broken journal within ${CATCH_BUDGET} generated trials`, () => {
  it('every catalogued and realistic broken journal fails a generated trial (a model violation, not inconclusive)', { timeout: 30 * 60_000 }, async () => {
    const missed: string[] = [];
    await mapPool(targets, 2, async (target) => {
      const run = await explorer(target.launch, 10_000);
      const stream = await runStream(run, { seed: 1, trials: CATCH_BUDGET, deadline: null, jobs: 1, shard: null, idOf: (i) => `bites.${i}` });
      const first = stream.find((t) => t.result.trial.verdict === 'failed');
      if (!first) {
        missed.push(`${target.name}: ${stream.map((t) => t.result.trial.verdict[0]).join('')} ${stream.find((t) => t.result.trial.verdict === 'inconclusive')?.result.trial.inconclusiveReason ?? ''}`);
        return;
      }
      caught.set(target.name, { trials: first.index + 1, clause: first.result.violation?.clause ?? '?' });
      if (SHRINK) {
        const shrunk = await shrink(run, first, 20, (n) => `bites.shrink-${n}`);
        expect(shrunk?.replayFailed, `${target.name}: the shrunk counterexample's replay`).toBe(true);
      }
    });
    expect(missed, 'broken journals no generated trial caught').toEqual([]);
  });

  it.each(Object.keys(catalogue.MISBEHAVIOURS))('%s makes its trial inconclusive, never passed', async (name) => {
    const run = await explorer({ kind: 'module', module: BROKEN, options: { defect: name } }, 5_000);
    const [t] = await runStream(run, { seed: 1, trials: 1, deadline: null, jobs: 1, shard: null, idOf: (i) => `misbehaves.${i}` });
    expect(t!.result.trial.verdict, t!.result.trial.inconclusiveReason ?? '').toBe('inconclusive');
  });

  afterAll(() => {
    const counts = [...caught.values()].map((c) => c.trials).sort((a, b) => a - b);
    const median = counts.length === 0 ? NaN : counts.length % 2 ? counts[(counts.length - 1) / 2]! : (counts[counts.length / 2 - 1]! + counts[counts.length / 2]!) / 2;
    const lines = [...caught].sort(([a], [b]) => (a < b ? -1 : 1)).map(([n, c]) => `  ${n.padEnd(40)} trial ${String(c.trials).padStart(2)}  ${c.clause}`);
    process.stdout.write(`explore catch rate: ${caught.size}/${targets.length} within ${CATCH_BUDGET} trials, median trials-to-catch ${median}\n${lines.join('\n')}\n`);
  });
});
