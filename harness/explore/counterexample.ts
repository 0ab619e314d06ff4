// What a report says about a violation: the clause, the model's expectation, the observation, the steps, the replay command.
import type { Features } from './case.js';
import { machineFeatures } from './features.js';
import type { ExploreOptions } from './run-explore.js';
import type { GeneratedTrial } from './trial.js';

/** The most steps a counterexample lists (the ones leading up to the violation); shrunk ones are far shorter. */
const MAX_STEPS = 120;

/** The counterexample of a failed trial, step by step up to the observation that broke the clause. */
export function counterexampleOf(r: GeneratedTrial, replay: string): unknown {
  const v = r.violation;
  if (v === null) return null;
  const upTo = r.steps.filter((s) => s.step <= v.step);
  return {
    replay,
    clause: v.clause,
    contract: v.contract,
    what: v.what,
    expected: v.expected,
    observed: v.observed,
    step: v.step,
    omittedSteps: Math.max(0, upTo.length - MAX_STEPS),
    steps: upTo.slice(-MAX_STEPS),
  };
}

/** The exploration's settings, the same in every shard of one run (so merge keeps them and a reader finds them). */
export function exploreSettings(o: ExploreOptions, f: Features): unknown {
  return {
    seed: o.seed,
    trials: o.trials,
    budgetMs: o.budgetMs,
    maxShrinkTrials: o.maxShrinks,
    profile: o.profile,
    replay: o.replay === null ? null : `${o.replay.seed >>> 0}:${o.replay.path}`,
    machine: machineFeatures(f),
    generated: {
      tierMode: f.tierMode,
      sessions: f.sessions,
      seeding: f.seeding,
      faults: f.faults,
      announcedPoints: f.points.length,
      // Each race activity repeats its start-barrier race 2–6 times on fresh identities.
      raceAttempts: '2-6 per race',
    },
  };
}
