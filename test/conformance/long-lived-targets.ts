// Which scenarios must fail for each journal that keeps what it read in a long-lived process: the fixed
// concurrency.long-lived.* scenarios (driver A answers, B changes the rows, A answers again) and the two long-lived
// drivers of the exploration's widening (harness/explore/long-lived.ts) that read, change and read again.
import { realisticTarget, type RealisticTarget } from './realistic-target.js';

const realistic = (await import(new URL('../broken/realistic/index.mjs', import.meta.url).href)) as { realisticModule: (name: string) => string };

const CATCHES: Readonly<Record<string, readonly string[]>> = {
  // A passed gate kept in the process: another worker's unresolved prepare in that node, and the gate still passes
  // (explore.mixed fails it too, at trial 1; one exploration keeps the entry within the test timeout).
  'gate-pass-cached-in-process': ['concurrency.long-lived.gate-after-prepare-elsewhere', 'explore.runs'],
  // A replay kept in the process: another process records the run's terminal (its committed rows swept), and the same
  // call is still answered with the old result instead of a new row.
  'replay-cached-in-process': ['concurrency.long-lived.replay-after-terminal-elsewhere'],
  // A gate refusal kept in the process: another process's operator resolves the rows, and the gates still refuse.
  'gate-refusal-cached-in-process': ['concurrency.long-lived.resolved-elsewhere'],
};

/** One catalogue entry per journal: the bounded exploration of the default run (seed 1) must be failed. */
export const LONG_LIVED_TARGETS: readonly RealisticTarget[] = Object.entries(CATCHES).map(([name, scenarios]) => realisticTarget(realistic.realisticModule(name), name, scenarios));
