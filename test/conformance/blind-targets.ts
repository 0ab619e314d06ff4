// Which scenario must fail (failed, never inconclusive) for each blind-* journal, and the clean journals the blind.*
// scenarios must not fail.
import { fileURLToPath } from 'node:url';
import type { Launch } from '../../reports/schema.js';
import { realisticTarget, type RealisticTarget } from './realistic-target.js';

const realistic = (await import(new URL('../broken/realistic/index.mjs', import.meta.url).href)) as {
  BLIND: Array<{ name: string; file: string; scenarios: string[] }>;
  blindFile: (file: string) => string;
};

/** One catalogue entry per blind journal (a .py module runs as `python3 <file>`, see run-targets.ts). */
export const BLIND_TARGETS: readonly RealisticTarget[] = realistic.BLIND.map(({ name, file, scenarios }) => realisticTarget(realistic.blindFile(file), name, scenarios));

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
const module = (path: string, options: Record<string, string> = {}): Launch => ({ kind: 'module', module: here(path), options });

/** Journals without a blind.* bug, and how many of the blind.* scenarios each must pass (the rest are not applicable to it). */
export const BLIND_CLEAN: ReadonlyArray<{ name: string; launch: Launch; passed: number }> = [
  { name: 'the reference journal (conservative)', launch: module('../../dist/reference-impl/adapter.js', { tierMode: 'conservative' }), passed: 4 },
  { name: 'the Python journal', launch: { kind: 'command', command: `python3 ${here('../../examples/python-journal/journal.py')}` }, passed: 3 },
  { name: 'the log journal', launch: module('../../examples/log-journal/journal.mjs'), passed: 3 },
  { name: 'the from-scratch ledger journal', launch: module('../fixtures/adapters/ledger-journal.mjs'), passed: 2 },
];
