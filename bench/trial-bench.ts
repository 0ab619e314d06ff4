// Crash-trial throughput against the bare-process-start bound: trials/s if a trial cost only its node starts.
import { performance } from 'node:perf_hooks';
import { BENCH_SCENARIO, driversOf, trialRunner } from './trial-runner.js';
import { timeNode, type Figure } from './figure.js';

/**
 * Alternates one crash trial with as many bare `node -e 0` starts as that trial started drivers, `rounds` times, so
 * load that comes and goes on the machine weighs on both sides alike.
 */
export async function trialBench(rounds = Number(process.env['EJC_BENCH_TRIALS'] ?? 12)): Promise<Figure> {
  const runner = await trialRunner();
  await runner.run(1);
  let trialMs = 0;
  let nodeMs = 0;
  let starts = 0;
  let kills = 0;
  // The harness's own CPU per trial (user + system, drivers excluded): less sensitive to a busy machine than wall time.
  let harnessCpuUs = 0;
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const [result] = await runner.run(1, 100 + i);
    const used = process.cpuUsage(cpu);
    trialMs += performance.now() - started;
    harnessCpuUs += used.user + used.system;
    const drivers = driversOf(result!);
    starts += drivers;
    kills += result!.trials[0]?.kills.length ?? 0;
    for (let j = 0; j < drivers; j++) nodeMs += await timeNode(['-e', '0'], { untilOutput: false });
  }
  const trialSeconds = trialMs / 1000;
  const trialsPerSecond = rounds / trialSeconds;
  const boundPerSecond = rounds / (nodeMs / 1000);
  return {
    name: `crash-trial throughput (${BENCH_SCENARIO}, ${rounds} trials, ${kills} kills, ${starts} driver processes)`,
    lines: [
      `harness: ${trialsPerSecond.toFixed(2)} crash trials/s (${((trialSeconds * 1000) / rounds).toFixed(0)} ms per trial)`,
      `harness process CPU: ${(harnessCpuUs / 1000 / rounds).toFixed(1)} ms per trial (user + system, its drivers not counted)`,
      `bound:   ${boundPerSecond.toFixed(2)} trials/s if a trial cost only its ${starts / rounds} bare \`node -e 0\` starts, one after another (${(nodeMs / starts).toFixed(0)} ms each)`,
    ],
    measures: [{ label: 'crash trials/s / bare-process-start bound', value: trialsPerSecond / boundPerSecond, unit: 'ratio', target: { atLeast: 0.7 } }],
  };
}
