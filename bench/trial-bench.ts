// Crash-trial throughput against the bare-process-start bound: trials/s if a trial cost only its node starts.
import { performance } from 'node:perf_hooks';
import { BENCH_SCENARIO, driversOf, trialRunner } from './trial-runner.js';
import { timeNode, type Figure } from './figure.js';

/** Runs the crash trial `rounds` times, then as many bare `node -e 0` starts as those trials started drivers. */
export async function trialBench(rounds = Number(process.env['EJC_BENCH_TRIALS'] ?? 12)): Promise<Figure> {
  const runner = await trialRunner();
  await runner.run(1);
  const started = performance.now();
  const results = await runner.run(rounds, 100);
  const trialSeconds = (performance.now() - started) / 1000;
  const starts = results.reduce((n, r) => n + driversOf(r), 0);
  let nodeMs = 0;
  for (let i = 0; i < starts; i++) nodeMs += await timeNode(['-e', '0'], { untilOutput: false });
  const trialsPerSecond = rounds / trialSeconds;
  const boundPerSecond = rounds / (nodeMs / 1000);
  const kills = results.reduce((n, r) => n + (r.trials[0]?.kills.length ?? 0), 0);
  return {
    name: `crash-trial throughput (${BENCH_SCENARIO}, ${rounds} trials, ${kills} kills, ${starts} driver processes)`,
    lines: [
      `harness: ${trialsPerSecond.toFixed(2)} crash trials/s (${((trialSeconds * 1000) / rounds).toFixed(0)} ms per trial)`,
      `bound:   ${boundPerSecond.toFixed(2)} trials/s if a trial cost only its ${starts / rounds} bare \`node -e 0\` starts, one after another (${(nodeMs / starts).toFixed(0)} ms each)`,
    ],
    measures: [{ label: 'crash trials/s / bare-process-start bound', value: trialsPerSecond / boundPerSecond, unit: 'ratio', target: { atLeast: 0.7 } }],
  };
}
