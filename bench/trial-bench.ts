// Crash-trial throughput of the harness against the cost of starting bare `node` processes, measured in one run.
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { defaultLaunch, runConformance } from '../harness/run-conformance.js';
import type { BenchResult } from './journal-bench.js';

const SCENARIO = 'cp04.after-settle';

/** Runs one crash scenario N times and N bare `node -e 0` starts, and prints trials/s, starts/s and their ratio. */
export async function trialBench(rounds = Number(process.env['EJC_BENCH_TRIALS'] ?? 8)): Promise<BenchResult> {
  const trialStart = performance.now();
  let kills = 0;
  let restarts = 0;
  for (let i = 0; i < rounds; i++) {
    const report = await runConformance({
      launch: defaultLaunch(),
      scenarioPatterns: [SCENARIO],
      tags: [],
      seed: i + 1,
      shard: null,
      expectFailures: new Set(),
      keep: 'none',
      timeoutMs: 30_000,
      argv: ['run'],
    });
    kills += report.counts.kills;
    restarts += report.counts.restarts;
  }
  const trialSeconds = (performance.now() - trialStart) / 1000;
  // Each trial starts a probe driver plus one driver before and one after the kill: 3 node processes.
  const starts = rounds * 3;
  const nodeStart = performance.now();
  for (let i = 0; i < starts; i++) await execa(process.execPath, ['-e', '0']);
  const nodeSeconds = (performance.now() - nodeStart) / 1000;
  const trialsPerSecond = rounds / trialSeconds;
  const bareTrialsPerSecond = rounds / nodeSeconds;
  return {
    name: `crash-trial throughput (${SCENARIO}, ${rounds} trials, ${kills} kills, ${restarts} restarts)`,
    lines: [
      `harness:  ${trialsPerSecond.toFixed(2)} crash trials/s`,
      `baseline: ${bareTrialsPerSecond.toFixed(2)} trials/s if a trial cost only its 3 bare node starts (${(starts / nodeSeconds).toFixed(1)} starts/s)`,
      `ratio:    ${(trialsPerSecond / bareTrialsPerSecond).toFixed(3)} (1.0 = the harness adds nothing to process start-up)`,
    ],
  };
}
