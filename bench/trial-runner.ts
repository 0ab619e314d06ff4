// The plain crash-trial runner the throughput and growth figures share: one scenario's trial, again and again.
import { defaultLaunch, probe, resolveForSpawn } from '../runner/run-conformance.js';
import { runScenario } from '../harness/run-scenario.js';
import type { Capabilities, HelloResult } from '../shared/protocol/schemas.js';
import type { Launch, ScenarioResult } from '../reports/schema.js';
import { allScenarios } from '../scenarios/catalog.js';

/** A crash scenario whose trial kills once and restarts once: two driver processes per trial. */
export const BENCH_SCENARIO = 'cp04.after-settle';

export interface TrialRunner {
  /** Runs the scenario's trial `count` times (seeds from `firstSeed`); throws unless each passed with its kill. */
  run(count: number, firstSeed?: number): Promise<ScenarioResult[]>;
  readonly hello: HelloResult;
}

/** Probes the reference journal once, then runs trials without a per-run probe, as `ejc run` does per scenario. */
export async function trialRunner(scenarioId = BENCH_SCENARIO): Promise<TrialRunner> {
  const scenario = allScenarios().find((s) => s.id === scenarioId);
  if (scenario === undefined) throw new Error(`bench: no scenario ${scenarioId}`);
  const launch: Launch = resolveForSpawn(defaultLaunch());
  const hello = await probe(launch, 30_000);
  const capabilities: Capabilities = hello.capabilities;
  return {
    hello,
    async run(count, firstSeed = 1) {
      const results: ScenarioResult[] = [];
      for (let i = 0; i < count; i++) {
        const result = await runScenario(scenario, { launch, seed: firstSeed + i, timeoutMs: 30_000, keep: 'none', capabilities, expectedFailure: false, reproduce: '' });
        const trial = result.trials[0];
        if (result.verdict !== 'passed' || trial === undefined || trial.kills.length === 0) {
          throw new Error(`bench: ${scenarioId} seed ${firstSeed + i} did not pass with a kill (${result.verdict}: ${result.reason ?? ''})`);
        }
        results.push(result);
      }
      return results;
    },
  };
}

/** Driver processes one trial started: the first, plus one per restart. */
export function driversOf(result: ScenarioResult): number {
  return result.trials.reduce((n, t) => n + 1 + t.counts.restarts, 0);
}
