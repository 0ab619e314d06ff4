// How cost grows: crash trials/s over a short run and one four times longer (flat means no leak), and peak RSS.
import { performance } from 'node:perf_hooks';
import { trialRunner } from './trial-runner.js';
import type { Figure } from './figure.js';

/** The plain trial runner for `short` trials, then for 4 × `short`, sampling the harness's RSS during the long one. */
export async function growthBench(short = Number(process.env['EJC_BENCH_GROWTH'] ?? 8)): Promise<Figure> {
  const runner = await trialRunner();
  await runner.run(1);
  const shortRate = await rate(() => runner.run(short, 1_000), short);
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
  const before = process.memoryUsage().rss;
  let longRate: number;
  try {
    longRate = await rate(() => runner.run(4 * short, 2_000), 4 * short);
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
  return {
    name: `cost growth (plain crash-trial runner, ${short} then ${4 * short} trials)`,
    lines: [
      `short run: ${shortRate.toFixed(2)} trials/s; 4x longer run: ${longRate.toFixed(2)} trials/s`,
      `harness RSS over the long run: ${mb(before)} at its start, peak ${mb(peak)}`,
    ],
    measures: [{ label: 'trials/s, 4x longer run / short run (1.0 = flat)', value: longRate / shortRate, unit: 'ratio', target: { atLeast: 0.9 } }],
  };
}

async function rate(run: () => Promise<unknown>, count: number): Promise<number> {
  const started = performance.now();
  await run();
  return count / ((performance.now() - started) / 1000);
}
