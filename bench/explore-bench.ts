// Generated crash trials per second on one core, against the floor of starting as many bare `node` processes as they start.
import { performance } from 'node:perf_hooks';
import { defaultLaunch, probe, resolveForSpawn } from '../runner/run-conformance.js';
import { featuresFor } from '../harness/explore/features.js';
import { runStream } from '../harness/explore/explorer.js';
import { timeNode, type Figure } from './figure.js';

/** Runs `rounds` generated trials on one lane, then as many bare node starts as their drivers; prints both rates and the ratio. */
export async function exploreBench(rounds = Number(process.env['EJC_BENCH_EXPLORE'] ?? 6)): Promise<Figure> {
  const launch = resolveForSpawn(defaultLaunch());
  const hello = await probe(launch, 30_000);
  const run = { launch, timeoutMs: 30_000, capabilities: hello.capabilities, features: featuresFor(hello.capabilities), keep: 'none' as const };
  const started = performance.now();
  const trials = await runStream(run, { seed: 1, trials: rounds, deadline: null, jobs: 1, shard: null, idOf: (i) => `bench.${i}` });
  const seconds = (performance.now() - started) / 1000;
  const drivers = trials.reduce((n, t) => n + (t.result.context.history ?? []).filter((e) => e.kind === 'driver').length, 0);
  const kills = trials.reduce((n, t) => n + t.result.trial.kills.length, 0);
  let floorMs = 0;
  for (let i = 0; i < drivers; i++) floorMs += await timeNode(['-e', '0'], { untilOutput: false });
  const floorSeconds = floorMs / 1000;
  const rate = trials.length / seconds;
  const floor = trials.length / floorSeconds;
  return {
    name: `generated crash trials (${trials.length} trials, one lane, ${kills} kills, ${drivers} driver starts)`,
    lines: [
      `explore:  ${rate.toFixed(3)} generated crash trials/s per core (${(kills / seconds).toFixed(2)} crash states/s)`,
      `floor:    ${floor.toFixed(3)} trials/s if a trial cost only its ${(drivers / trials.length).toFixed(1)} bare node starts (${(drivers / floorSeconds).toFixed(1)} starts/s)`,
      `ratio:    ${(rate / floor).toFixed(3)} (1.0 = generation, the model and the journal add nothing to process start-up)`,
    ],
    measures: [{ label: 'generated crash trials/s per core / bare-process-start floor', value: rate / floor, unit: 'ratio', target: { atLeast: 0.4 } }],
  };
}
