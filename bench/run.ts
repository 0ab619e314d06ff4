// `npm run bench`: runs every registered benchmark in turn and prints its lines. No assertions.
import { journalBench, type BenchResult } from './journal-bench.js';
import { trialBench } from './trial-bench.js';
import { exploreBench } from './explore-bench.js';

/** The registered benchmarks, run in this order. */
export const BENCHES: ReadonlyArray<() => Promise<BenchResult>> = [() => journalBench(), () => trialBench(), () => exploreBench()];

/** Runs the benchmarks sequentially so they never compete for the two cores. */
export async function runBenches(benches: ReadonlyArray<() => Promise<BenchResult>> = BENCHES): Promise<void> {
  for (const bench of benches) {
    const result = await bench();
    process.stdout.write(`# ${result.name}\n${result.lines.map((line) => `  ${line}\n`).join('')}`);
  }
}

runBenches().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
