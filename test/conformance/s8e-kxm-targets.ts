// Which scenario must fail (failed, never inconclusive) for each S8e/KXM realistic broken journal, and the journals with
// no S8e/KXM bug that must pass every scenario those were designed with.
import { fileURLToPath } from 'node:url';
import type { Launch } from '../../reports/schema.js';
import { realisticTarget, type RealisticTarget } from './realistic-target.js';

const realistic = (await import(new URL('../broken/realistic/index.mjs', import.meta.url).href)) as {
  S8E_KXM: Array<{ name: string; scenarios: string[] }>;
  KXM_FILES_JOURNAL: string;
  realisticModule: (name: string) => string;
};

/** One catalogue entry per S8e/KXM journal: its module, and evidence that each designed scenario failed. */
export const S8E_KXM_TARGETS: readonly RealisticTarget[] = realistic.S8E_KXM.map(({ name, scenarios }) => realisticTarget(realistic.realisticModule(name), name, scenarios));

/** Every scenario the S8e/KXM journals are judged by. */
export const S8E_KXM_SCENARIOS: readonly string[] = [...new Set(realistic.S8E_KXM.flatMap((j) => j.scenarios))].sort();

const module = (path: string, options: Record<string, string> = {}): Launch => ({ kind: 'module', module: fileURLToPath(new URL(path, import.meta.url)), options });

/** Journals without an S8e/KXM bug, and how many of the scenarios each must pass (the rest are not applicable to it). */
export const S8E_KXM_CLEAN: ReadonlyArray<{ name: string; launch: Launch; passed: number }> = [
  { name: 'the reference journal (reconciling)', launch: module('../../dist/reference-impl/adapter.js'), passed: 5 },
  { name: 'the reference journal (conservative)', launch: module('../../dist/reference-impl/adapter.js', { tierMode: 'conservative' }), passed: 3 },
  { name: 'the from-scratch KXM file journal', launch: module(`../broken/realistic/${realistic.KXM_FILES_JOURNAL}.mjs`), passed: 3 },
  { name: 'the Python journal (reconciling)', launch: { kind: 'command', command: `python3 ${fileURLToPath(new URL('../../examples/python-journal/journal.py', import.meta.url))} --tier-mode reconciling` }, passed: 2 },
  { name: 'the log journal', launch: module('../../examples/log-journal/journal.mjs'), passed: 0 },
  { name: 'the from-scratch file journal', launch: module('../broken/realistic/core-files-journal.mjs'), passed: 0 },
  { name: 'the from-scratch ledger journal', launch: module('../fixtures/adapters/ledger-journal.mjs'), passed: 0 },
];
