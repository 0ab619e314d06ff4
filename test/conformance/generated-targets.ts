// Which scenario must fail (failed, never inconclusive) for each journal only generated exploration catches: the
// bounded exploration every default run includes (scenarios/explore/family.ts), at the targets' seed 1.
import { realisticTarget, type RealisticTarget } from './realistic-target.js';

const realistic = (await import(new URL('../broken/realistic/index.mjs', import.meta.url).href)) as {
  GENERATED: Array<{ name: string; scenarios: string[] }>;
  realisticModule: (name: string) => string;
};

/** One catalogue entry per journal of the GENERATED list: its module, and evidence that its explore scenario failed. */
export const GENERATED_TARGETS: readonly RealisticTarget[] = realistic.GENERATED.map(({ name, scenarios }) => realisticTarget(realistic.realisticModule(name), name, scenarios));
