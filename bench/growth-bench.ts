// How cost grows: a short run of crash trials and one four times longer (flat means no leak), and peak RSS.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { trialRunner } from './trial-runner.js';
import type { Figure } from './figure.js';

/**
 * The plain trial runner for `short` trials, then for 4 × `short`, sampling the harness's RSS during the long one.
 * The figure compares CPU per trial (the harness and every driver it reaped), which load on the machine does not
 * change the way it changes wall time; trials/s are printed too.
 */
export async function growthBench(short = Number(process.env['EJC_BENCH_GROWTH'] ?? 8)): Promise<Figure> {
  const runner = await trialRunner();
  await runner.run(1);
  const first = await measure(() => runner.run(short, 1_000), short);
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
  const before = process.memoryUsage().rss;
  let long: Measured;
  try {
    long = await measure(() => runner.run(4 * short, 2_000), 4 * short);
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
  const cpu = first.cpuPerTrial !== null && long.cpuPerTrial !== null;
  return {
    name: `cost growth (plain crash-trial runner, ${short} then ${4 * short} trials)`,
    lines: [
      `short run: ${first.perSecond.toFixed(2)} trials/s${cpu ? `, ${first.cpuPerTrial!.toFixed(0)} CPU ticks per 100 trials` : ''}`,
      `4x longer run: ${long.perSecond.toFixed(2)} trials/s${cpu ? `, ${long.cpuPerTrial!.toFixed(0)} CPU ticks per 100 trials` : ''}`,
      `harness RSS over the long run: ${mb(before)} at its start, peak ${mb(peak)}`,
    ],
    measures: [
      cpu
        ? { label: 'CPU per trial, short run / 4x longer run (1.0 = flat)', value: first.cpuPerTrial! / long.cpuPerTrial!, unit: 'ratio', target: { atLeast: 0.9 } }
        : { label: 'trials/s, 4x longer run / short run (1.0 = flat)', value: long.perSecond / first.perSecond, unit: 'ratio', target: { atLeast: 0.9 } },
    ],
  };
}

interface Measured {
  readonly perSecond: number;
  /** CPU clock ticks per 100 trials, or null where /proc/self/stat is not there to say. */
  readonly cpuPerTrial: number | null;
}

async function measure(run: () => Promise<unknown>, count: number): Promise<Measured> {
  const ticks = cpuTicks();
  const started = performance.now();
  await run();
  const perSecond = count / ((performance.now() - started) / 1000);
  const after = cpuTicks();
  return { perSecond, cpuPerTrial: ticks === null || after === null ? null : ((after - ticks) * 100) / count };
}

// utime + stime + cutime + cstime: this process and every child it has reaped, the drivers included (Linux).
function cpuTicks(): number | null {
  try {
    const text = readFileSync('/proc/self/stat', 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
  } catch {
    return null;
  }
}
