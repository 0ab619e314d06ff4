// The bounded exploration every `ejc run` includes: a fixed number of generated trials per scenario, checked by the model.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import { featuresFor, machineFeatures, withProfile, type Profile } from '../../harness/explore/features.js';
import type { Features } from '../../harness/explore/case.js';
import { once, shrink, trialSeed, type ExploreRun } from '../../harness/explore/explorer.js';
import { trialCase } from '../../harness/explore/arb-case.js';
import { counterexampleOf } from '../../harness/explore/counterexample.js';
import { replayCommand, summaryOf } from '../../harness/explore/explore-report.js';
import type { GeneratedTrial } from '../../harness/explore/trial.js';

/** Generated trials per scenario in the default run: enough to matter, few enough for every CI gate. */
export const FAMILY_TRIALS = 6;
/** Real trials a failing family scenario may spend shrinking its counterexample. */
export const FAMILY_SHRINKS = 10;

export const exploreFamily: Scenario[] = [
  family('explore.runs', 'runs', 'Generated runs: many runs and nodes, awkward ids, arbitrary arguments with secrets, tiers, mappings, races, faults, kills at boundaries, points and syscalls, clock jumps'),
  family('explore.mixed', 'mixed', 'Generated runs and sessions interleaved in one journal: turns, disclosures, deferred sweeps, concurrent resumes, legacy rows, kills during recovery'),
];

function family(id: string, profile: Profile, title: string): Scenario {
  return defineScenario({
    id,
    title,
    spec: 'effect-journal §1–§11 (every clause harness/model checks)',
    tags: ['explore', 'generated'],
    needs: [],
    description: `${FAMILY_TRIALS} trials generated from the run's seed (fast-check, profile ${profile}), each run for real (drivers, SIGKILL, restarts, byte scans) and its whole history checked by the executable model of the contract. A violation is shrunk (at most ${FAMILY_SHRINKS} more trials) and reported with the ejc explore command that replays it.`,
    asserts: ['every observation of every generated trial is one the model allows', 'on a violation: a shrunk counterexample with its replay command'],
    async trial(t) {
      await exploreInScenario(t, id, profile);
    },
  });
}

async function exploreInScenario(t: TrialContext, id: string, profile: Profile): Promise<void> {
  const features = withProfile(featuresFor(t.capabilities), profile);
  const run: ExploreRun = { launch: t.launch, timeoutMs: t.timeoutMs, capabilities: t.capabilities, features, keep: 'none' };
  const arb = trialCase(features);
  const replayOf = (seed: number, path: string) => replayCommand(t.launch, seed, path, features, t.timeoutMs, profile);
  const trials: unknown[] = [];
  // Generated trials race drivers (two resumes of one session may both disclose, racing prepares meet each other in any
  // order): how many disclosures, replays and refusals they saw is the contract's allowance, not their outcome.
  t.varies('disclosures', 'replays', 'refusals');
  for (let k = 0; k < FAMILY_TRIALS; k++) {
    const seed = trialSeed(t.seed, k);
    const { result, case: c } = await once(run, arb, seed, null, `${id}#${k + 1}`);
    absorb(t, result, `trial ${k + 1}`);
    trials.push({ fastCheckSeed: seed >>> 0, ...summaryOf(c), verdict: result.trial.verdict });
    if (result.trial.verdict === 'failed') {
      const shrunk = await shrink(run, { seed, case: c, result }, FAMILY_SHRINKS, (n) => `${id}#${k + 1}.shrink-${n}`);
      const best = shrunk?.result ?? result;
      const command = shrunk === null ? replayOf(seed, '0') : replayOf(seed, shrunk.path);
      if (shrunk !== null) absorb(t, shrunk.result, 'shrunk counterexample');
      // The scenario's timeline is the counterexample's: the trial a reader follows step by step.
      t.record.adopt(best.context.record);
      t.sections['explore'] = { ...settings(profile, features), trials, shrinkTrials: shrunk?.trials ?? 0, replayFailedAgain: shrunk?.replayFailed ?? null, counterexample: counterexampleOf(best, command) };
      return;
    }
    if (result.trial.verdict === 'inconclusive') {
      t.inconclusiveReason ??= `generated trial ${k + 1}: ${result.trial.inconclusiveReason ?? result.trial.violations[0]?.message ?? 'inconclusive'} (replay: ${replayOf(seed, '0')})`;
      break;
    }
  }
  t.sections['explore'] = { ...settings(profile, features), trials, counterexample: null };
}

// The exploration's budget, where a report reader (and the report's fingerprint) finds it.
function settings(profile: Profile, features: Features): Record<string, unknown> {
  return { profile, trialsPerScenario: FAMILY_TRIALS, maxShrinkTrials: FAMILY_SHRINKS, seedOfTrial: 'fast-check seed hash(scenario seed, k)', machine: machineFeatures(features) };
}

// A generated trial ran in its own directory and world; its evidence joins the scenario's one trial.
function absorb(t: TrialContext, r: GeneratedTrial, label: string): void {
  for (const a of r.trial.assertions) t.assertions.push({ ...a, name: `${label}: ${a.name}` });
  t.kills.push(...r.trial.kills);
  t.plannedKills += r.trial.plannedKills;
  t.world.adopt({ dispatchAttempts: r.trial.counts.dispatchAttempts, physicalWrites: r.trial.counts.physicalWrites, duplicateWrites: r.trial.counts.duplicateWrites, restartWrites: r.trial.counts.restartWrites });
  for (const k of ['replays', 'refusals', 'disclosures', 'bytesScanned', 'canaryHits', 'restarts'] as const) t.tally[k] += r.trial.counts[k];
}
