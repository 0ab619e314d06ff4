// `ejc explore` as a function: probe, run the seed stream, shrink the first violation, replay it, and return the sealed report.
import { EjcError } from '../../shared/errors.js';
import { probe, resolveForSpawn } from '../implementation.js';
import type { Counts, Launch, Report } from '../../reports/schema.js';
import { trialCase } from './arb-case.js';
import { featuresFor, withProfile, type Profile } from './features.js';
import { once, runStream, shrink, type ExploreRun, type Shrunk, type StreamTrial } from './explorer.js';
import { buildExploreReport } from './explore-report.js';

export interface ExploreOptions {
  readonly launch: Launch;
  readonly timeoutMs: number;
  readonly seed: number;
  /** How many trials of the stream to run (a shard runs its share of them). */
  readonly trials: number;
  /** Stop starting trials after this long (then `trials` is only an upper bound). */
  readonly budgetMs: number | null;
  readonly jobs: number;
  readonly shard: { index: number; count: number } | null;
  /** Real trials the shrinking may run. */
  readonly maxShrinks: number;
  /** What generation may use (a replay must name the profile its counterexample came from). */
  readonly profile: Profile;
  readonly keep: 'all' | 'failed' | 'none';
  /** Where kept trial directories go (`<out>/kept`); unset, the temp directory. */
  readonly keepRoot?: string;
  /** Replay exactly one counterexample instead of exploring: fast-check seed and path, and the machine features it used. */
  readonly replay: { seed: number; path: string; machine: { strace: boolean; faketime: boolean } } | null;
  readonly argv: string[];
  readonly onProgress?: (e: ExploreProgress) => void;
}

export type ExploreProgress =
  | { kind: 'trial'; done: number; total: number | null; index: number; verdict: string; kills: number; elapsedMs: number; failures: number }
  | { kind: 'shrink'; step: number; max: number; failed: boolean; counts: Counts }
  | { kind: 'replay' }
  | { kind: 'kept'; dir: string };

/** Explores and returns the sealed report; usage problems throw EjcError before any trial. */
export async function exploreConformance(o: ExploreOptions): Promise<Report> {
  const started = new Date();
  const spawnLaunch = resolveForSpawn(o.launch);
  const hello = await probe(spawnLaunch, o.timeoutMs);
  if (o.replay !== null) {
    // Generation depends on what the machine offers: a replay elsewhere must offer the same, or it would replay another case.
    const here = featuresFor(hello.capabilities);
    const missing = (['strace', 'faketime'] as const).filter((k) => o.replay!.machine[k] && !here[k]);
    if (missing.length > 0) throw new EjcError('usage', `this counterexample was generated on a machine with ${missing.join(' and ')}, which this one lacks: install it (apt-get install ${missing.join(' ')}) or replay where it was found`);
  }
  const features = withProfile(featuresFor(hello.capabilities, o.replay?.machine ?? {}), o.profile);
  const run: ExploreRun = { launch: spawnLaunch, timeoutMs: o.timeoutMs, capabilities: hello.capabilities, features, keep: o.keep, ...(o.keepRoot === undefined ? {} : { keepRoot: o.keepRoot }), onKept: (dir) => o.onProgress?.({ kind: 'kept', dir }) };
  const idOf = (index: number) => `explore.trial-${String(index).padStart(5, '0')}`;
  let stream: StreamTrial[];
  let shrunk: Shrunk | null = null;
  if (o.replay !== null) {
    o.onProgress?.({ kind: 'replay' });
    const { result, case: c } = await once(run, trialCase(features), o.replay.seed, o.replay.path, 'explore.replay');
    stream = [{ index: 0, seed: o.replay.seed, case: c, result }];
  } else {
    const deadline = o.budgetMs === null ? null : started.getTime() + o.budgetMs;
    let done = 0;
    let failures = 0;
    stream = await runStream(run, { seed: o.seed, trials: o.trials, deadline, jobs: o.jobs, shard: o.shard, idOf }, (t) => {
      done += 1;
      if (t.result.trial.verdict === 'failed') failures += 1;
      o.onProgress?.({ kind: 'trial', done, total: o.budgetMs === null ? o.trials : null, index: t.index, verdict: t.result.trial.verdict, kills: t.result.trial.kills.length, elapsedMs: Date.now() - started.getTime(), failures });
    });
    const first = stream.find((t) => t.result.trial.verdict === 'failed');
    if (first !== undefined) {
      shrunk = await shrink(run, first, o.maxShrinks, (n) => `${idOf(first.index)}.shrink-${n}`, (step, failed, counts) => o.onProgress?.({ kind: 'shrink', step, max: o.maxShrinks, failed, counts }));
    }
  }
  return buildExploreReport({ options: o, hello, features, stream, shrunk, started, idOf });
}
