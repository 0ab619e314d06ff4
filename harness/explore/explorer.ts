// The exploration: a seed stream of generated trials on bounded lanes, the first violation shrunk with fast-check, and its replay.
import fc from 'fast-check';
import type { Counts } from '../../reports/schema.js';
import { mapPool } from '../pool.js';
import { deriveSeed } from '../rng.js';
import { trialCase } from './arb-case.js';
import type { TrialCase } from './case.js';
import { runGeneratedTrial, type GeneratedTrial, type TrialRunOptions } from './trial.js';

/** What every trial of one exploration shares: the options of one trial without its id and seed. */
export type ExploreRun = Omit<TrialRunOptions, 'id' | 'seed'>;

/** One trial of the seed stream: its index, fast-check seed, the generated case and what it found. */
export interface StreamTrial {
  readonly index: number;
  readonly seed: number;
  readonly case: TrialCase;
  readonly result: GeneratedTrial;
}

/** A shrunk counterexample: the replay token (fast-check seed and path) and the minimal trial's evidence. */
export interface Shrunk {
  readonly seed: number;
  readonly path: string;
  readonly shrinks: number;
  /** Real trials the shrinking ran (each a full trial with drivers and kills). */
  readonly trials: number;
  readonly result: GeneratedTrial;
  readonly case: TrialCase;
  /** The replay of exactly this counterexample failed again. */
  readonly replayFailed: boolean;
  readonly replay: GeneratedTrial | null;
}

/** The fast-check seed of the k-th trial of an exploration (signed 32-bit, as fast-check reports seeds). */
export function trialSeed(seed: number, index: number): number {
  return deriveSeed(seed, `explore#${index}`) | 0;
}

/** The indices of the first `trials` of the seed stream a shard owns: every count-th, from its own offset. */
export function shardIndices(trials: number, shard: { index: number; count: number } | null): number[] {
  const out: number[] = [];
  for (let k = shard === null ? 0 : shard.index - 1; k < trials; k += shard === null ? 1 : shard.count) out.push(k);
  return out;
}

/**
 * Runs the stream on `jobs` lanes until `trials` are done or `deadline` passes; stops starting new ones at the first failure.
 * Only trials up to the lowest failing index are kept, so the result never depends on the lane count.
 */
export async function runStream(
  run: ExploreRun,
  o: { seed: number; trials: number; deadline: number | null; jobs: number; shard: { index: number; count: number } | null; idOf: (index: number) => string },
  onTrial?: (t: StreamTrial) => void,
): Promise<StreamTrial[]> {
  const arb = trialCase(run.features);
  const indices = shardIndices(o.trials, o.shard);
  let failedAt = Infinity;
  const done = await mapPool(
    indices,
    o.jobs,
    async (index, m) => {
      const seed = trialSeed(o.seed, index);
      const { result, case: c } = await once(run, arb, seed, null, o.idOf(index));
      if (result.trial.verdict === 'failed') failedAt = Math.min(failedAt, m);
      const t = { index, seed, case: c, result };
      onTrial?.(t);
      return t;
    },
    () => failedAt !== Infinity || (o.deadline !== null && Date.now() >= o.deadline),
  );
  // Trials after the first failure may have run on other lanes; dropping them keeps the report the same for any --jobs.
  return done.filter((t, m): t is StreamTrial => t !== undefined && m <= failedAt);
}

/** Runs exactly one generated case (the seed's first, or the one at `path` of its shrink tree) as one real trial. */
export async function once(run: ExploreRun, arb: fc.Arbitrary<TrialCase>, seed: number, path: string | null, id: string): Promise<{ result: GeneratedTrial; case: TrialCase }> {
  let out: { result: GeneratedTrial; case: TrialCase } | null = null;
  await fc.check(
    fc.asyncProperty(arb, async (c) => {
      const result = await runGeneratedTrial(c, { ...run, id, seed: seed >>> 0 });
      out = { result, case: c };
      return result.trial.verdict !== 'failed';
    }),
    { seed, numRuns: 1, endOnFailure: true, ...(path === null ? {} : { path }) },
  );
  if (out === null) throw new Error(`fast-check ran no trial for seed ${seed}${path === null ? '' : ` path ${path}`}`);
  return out;
}

/**
 * Shrinks the failing case of `seed` with fast-check; every candidate it tries is a real trial, at most `maxTrials` of them
 * (after that, candidates count as passing without running). Then replays the result once to show it fails again.
 */
export async function shrink(
  run: ExploreRun,
  first: { seed: number; case: TrialCase; result: GeneratedTrial },
  maxTrials: number,
  idOf: (n: number) => string,
  onStep?: (n: number, failed: boolean, counts: Counts) => void,
): Promise<Shrunk | null> {
  const arb = trialCase(run.features);
  const seed = first.seed;
  // The failing case itself is fast-check's first candidate: its verdict is known, it need not run again.
  const seen = new Map<string, GeneratedTrial>([[JSON.stringify(first.case), first.result]]);
  let trials = 0;
  let last: { result: GeneratedTrial; case: TrialCase } | null = null;
  const details = await fc.check(
    fc.asyncProperty(arb, async (c) => {
      // Once the budget is spent every further candidate passes unrun, so fast-check stops where the last real failure was.
      if (trials >= maxTrials && last !== null) return true;
      const key = JSON.stringify(c);
      let result = seen.get(key);
      if (result === undefined) {
        trials += 1;
        result = await runGeneratedTrial(c, { ...run, id: idOf(trials), seed: seed >>> 0, keep: 'none' });
        seen.set(key, result);
        onStep?.(trials, result.trial.verdict === 'failed', result.trial.counts);
      }
      const failed = result.trial.verdict === 'failed';
      if (failed) last = { result, case: c };
      return !failed;
    }),
    { seed, numRuns: 1 },
  );
  const found = last as { result: GeneratedTrial; case: TrialCase } | null;
  if (!details.failed || details.counterexamplePath === null || found === null) return null;
  const { result: replay } = await once(run, arb, seed, details.counterexamplePath, idOf(trials + 1));
  return {
    seed,
    path: details.counterexamplePath,
    shrinks: details.numShrinks,
    trials,
    result: found.result,
    case: found.case,
    replayFailed: replay.trial.verdict === 'failed',
    replay,
  };
}
