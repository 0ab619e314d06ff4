// Which blind2.* scenario must fail (failed, never inconclusive) for each blind2-* journal.
import { realisticTarget, type RealisticTarget } from './realistic-target.js';

const realistic = (await import(new URL('../broken/realistic/index.mjs', import.meta.url).href)) as {
  BLIND2: Array<{ name: string; file: string; scenarios: string[] }>;
  blindFile: (file: string) => string;
};

/** One catalogue entry per blind2 journal (a .py module runs as `python3 <file>`, see run-targets.ts). */
export const BLIND2_TARGETS: readonly RealisticTarget[] = realistic.BLIND2.map(({ name, file, scenarios }) => realisticTarget(realistic.blindFile(file), name, scenarios));
