// Which scenario must fail (failed, never inconclusive) for each blind3-* journal, and the journals the blind3.* scenarios must not fail.
import { fileURLToPath } from 'node:url';
import type { Launch } from '../../reports/schema.js';
import { realisticTarget, type RealisticTarget } from './realistic-target.js';

const realistic = (await import(new URL('../broken/realistic/index.mjs', import.meta.url).href)) as {
  BLIND3: Array<{ name: string; file: string; scenarios: string[] }>;
  BLIND3_JOURNALS: string[];
  blindFile: (file: string) => string;
};

/** One catalogue entry per blind3 journal (a .py module runs as `python3 <file>`, see run-targets.ts). */
export const BLIND3_TARGETS: readonly RealisticTarget[] = realistic.BLIND3.map(({ name, file, scenarios }) => realisticTarget(realistic.blindFile(file), name, scenarios));

const launch = (path: string): Launch => (path.endsWith('.py') ? { kind: 'command', command: `python3 ${path}` } : { kind: 'module', module: path, options: {} });

/** Journals without a blind3 bug, and how many of the blind3.* scenarios each must pass (the rest are not applicable to it). */
export const BLIND3_CLEAN: ReadonlyArray<{ name: string; launch: Launch; passed: number }> = [
  ...realistic.BLIND3_JOURNALS.map((file) => ({ name: file, launch: launch(realistic.blindFile(file)), passed: 3 })),
  { name: 'the log journal', launch: launch(fileURLToPath(new URL('../../examples/log-journal/journal.mjs', import.meta.url))), passed: 3 },
  { name: 'the Python journal', launch: launch(fileURLToPath(new URL('../../examples/python-journal/journal.py', import.meta.url))), passed: 3 },
];
