// Which scenario must fail (failed, never inconclusive) for each journal of an input dimension the workloads missed,
// and the journals without such a bug that the dimensions' scenarios must not fail.
import { fileURLToPath } from 'node:url';
import type { Launch } from '../../reports/schema.js';
import { realisticTarget, type RealisticTarget } from './realistic-target.js';

const realistic = (await import(new URL('../broken/realistic/index.mjs', import.meta.url).href)) as {
  DIMENSIONS: Array<{ name: string; scenarios: string[]; attempts?: number }>;
  realisticModule: (name: string) => string;
};

/** One catalogue entry per journal of the DIMENSIONS list. */
export const DIMENSION_TARGETS: readonly RealisticTarget[] = realistic.DIMENSIONS.map(({ name, scenarios, attempts }) => realisticTarget(realistic.realisticModule(name), name, scenarios, attempts === undefined ? {} : { attempts }));

/** The scenario families added for the dimensions. */
export const DIMENSION_FAMILIES = ['digest.public-values-count', 'digest.credential-forms-fixed', 'identity.*', '*.scale.*'];

const example = (path: string): string => fileURLToPath(new URL(`../../examples/${path}`, import.meta.url));

/** Journals without such a bug: the example journals (the reference runs them in the full matrix). */
export const DIMENSION_CLEAN: ReadonlyArray<{ name: string; launch: Launch }> = [
  { name: 'the log journal', launch: { kind: 'module', module: example('log-journal/journal.mjs'), options: {} } },
  { name: 'the Python journal', launch: { kind: 'command', command: `python3 ${example('python-journal/journal.py')}` } },
];
