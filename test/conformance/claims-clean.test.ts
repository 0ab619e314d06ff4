// No false positives from the claims.* scenarios: journals whose hello tells the truth (the reference in both tier modes,
// the log and Python examples, the from-scratch ledger and files journals, a store with no gate of its own) pass them.
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runConformance } from '../../runner/run-conformance.js';
import type { Launch } from '../../reports/schema.js';
import { EDGE_CLEAN } from './edge-targets.js';
import { claimedScope } from '../../reports/scope.js';

const FILES = fileURLToPath(new URL('../broken/realistic/core-files-journal.mjs', import.meta.url));
const ALLOWED = fileURLToPath(new URL('../fixtures/allowed/allowed-journal.mjs', import.meta.url));
const module = (path: string, options: Record<string, string> = {}): Launch => ({ kind: 'module', module: path, options });

// passed: how many of the five really ran (a journal announcing no crash point has neither crash-points-block to run).
const CASES: ReadonlyArray<{ name: string; launch: Launch; passed: number }> = [
  { name: 'the reference journal', launch: module(EDGE_CLEAN.reference), passed: 5 },
  { name: 'the reference journal (conservative tiers)', launch: module(EDGE_CLEAN.reference, { tierMode: 'conservative' }), passed: 5 },
  { name: 'the log journal (no SQLite, conservative)', launch: module(EDGE_CLEAN.log), passed: 5 },
  { name: 'the Python journal', launch: { kind: 'command', command: `python3 ${EDGE_CLEAN.python}` }, passed: 3 },
  { name: 'the from-scratch ledger journal (no sessions, seeding or resolution)', launch: module(EDGE_CLEAN.ledger), passed: 3 },
  { name: 'the from-scratch files journal (no sessions or seeding)', launch: module(FILES), passed: 5 },
  { name: 'a store with no gate of its own (gate: "harness")', launch: module(ALLOWED, { variant: 'no-gate-of-its-own' }), passed: 5 },
];

describe('claims.* scenarios against journals whose hello is true', () => {
  for (const c of CASES) {
    it(`${c.name} passes them`, { timeout: 120_000 }, async () => {
      const report = await runConformance({ launch: c.launch, scenarioPatterns: ['claims.*'], tags: [], seed: 1, shard: null, expectFailures: new Set(), keep: 'none', timeoutMs: 10_000, argv: ['run'] });
      const all = Object.fromEntries(report.scenarios.map((s) => [s.id, s.verdict === 'passed' || s.verdict === 'not_applicable' ? s.verdict : `${s.verdict}: ${s.reason ?? ''}`]));
      expect(Object.values(all).filter((v) => v !== 'passed' && v !== 'not_applicable'), JSON.stringify(all)).toEqual([]);
      expect(Object.values(all).filter((v) => v === 'passed').length, JSON.stringify(all)).toBe(c.passed);
      // The report says what did not run, and why: here only the crash points the journal does not announce.
      expect(report.scope).toEqual(claimedScope(report.scenarios));
      expect(report.scope?.excluded.map((g) => g.capability)).toEqual(c.passed === 5 ? [] : ['point:prepare.before-commit', 'point:settle.before-commit']);
    });
  }
});
