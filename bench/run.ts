// `npm run bench`: prints the machine's core count, runs every figure in turn, then each measure against its target.
import { availableParallelism } from 'node:os';
import { growthBench } from './growth-bench.js';
import { hostStartBench } from './host-start-bench.js';
import { journalBench } from './journal-bench.js';
import { matrixBench } from './matrix-bench.js';
import { trialBench } from './trial-bench.js';
import { exploreBench } from './explore-bench.js';
import { meets, targetText, type Figure, type FigureFn } from './figure.js';

/** The registered figures, run in this order. A new figure is one more function here. */
export const FIGURES: readonly FigureFn[] = [hostStartBench, journalBench, trialBench, exploreBench, growthBench, matrixBench];

/** Runs the figures one after another (never side by side: they would compete for the cores) and prints them. */
export async function runBenches(figures: readonly FigureFn[] = FIGURES): Promise<Figure[]> {
  process.stdout.write(`machine: ${availableParallelism()} core(s), node ${process.version}, ${process.platform}-${process.arch}\n`);
  const done: Figure[] = [];
  for (const figure of figures) {
    const result = await figure();
    done.push(result);
    process.stdout.write(`# ${result.name}\n${result.lines.map((line) => `  ${line}\n`).join('')}`);
  }
  process.stdout.write('\nfigures:\n');
  for (const m of done.flatMap((f) => f.measures)) {
    const verdict = meets(m);
    const value = m.unit === 's' ? `${m.value.toFixed(1)} s` : m.value.toFixed(2);
    process.stdout.write(`  ${m.label.padEnd(58)} ${value.padStart(8)}  target ${targetText(m).padEnd(8)} ${verdict === null ? '' : verdict ? 'met' : 'NOT met'}\n`);
  }
  return done;
}

// A figure, never an assertion: a missed target is printed, and the exit code stays 0.
runBenches().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
