// No false positives from the edge.* scenarios: the reference, the from-scratch ledger journal (the base of the
// ledger-* broken journals), the log journal and the Python journal pass every edge.* scenario they can run, and the
// ledger journal also passes the core scenarios its broken versions are judged beside.
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../runner/run-conformance.js';
import type { Launch, Report } from '../../reports/schema.js';
import { EDGE_CLEAN } from './edge-targets.js';

// The contract-edge scenarios (their old ids began edge.).
const EDGE = ['digest.canonical-corners', 'erasure.*', 'kxm.lease.expiry-instant', 'kxm.lease.fence-spans-tools-and-runs', 'retention.session-sweep.post-read-commit-any-turn'];

const LEDGER_CORE = ['digest.persisted-form', 'cp04.after-settle', 'cp04.after-settle.secret-only-change', 'cp04.after-settle.public-args-changed', 'cp11.retention.*', 'secrets.args-never-on-disk'];

function run(launch: Launch, scenarioPatterns: readonly string[]): Promise<Report> {
  return runConformance({ launch, scenarioPatterns: [...scenarioPatterns], tags: [], seed: 1, shard: null, expectFailures: new Set(), keep: 'none', timeoutMs: 10_000, argv: ['run'] });
}

function verdicts(report: Report): Record<string, string> {
  return Object.fromEntries(report.scenarios.map((s) => [s.id, s.verdict === 'passed' || s.verdict === 'not_applicable' ? s.verdict : `${s.verdict}: ${s.reason ?? ''}`]));
}

const CASES: ReadonlyArray<{ name: string; launch: Launch; patterns: readonly string[]; passed: number }> = [
  { name: 'the reference journal', launch: { kind: 'module', module: EDGE_CLEAN.reference, options: {} }, patterns: EDGE, passed: 9 },
  { name: 'the from-scratch ledger journal', launch: { kind: 'module', module: EDGE_CLEAN.ledger, options: {} }, patterns: [...EDGE, ...LEDGER_CORE], passed: 9 },
  { name: 'the log journal', launch: { kind: 'module', module: EDGE_CLEAN.log, options: {} }, patterns: EDGE, passed: 5 },
  { name: 'the Python journal', launch: { kind: 'command', command: `python3 ${EDGE_CLEAN.python}` }, patterns: EDGE, passed: 7 },
];

describe('edge.* scenarios against journals without an edge bug', () => {
  for (const c of CASES) {
    it(`${c.name} passes every edge.* scenario it can run`, { timeout: 180_000 }, async () => {
      const report = await run(c.launch, c.patterns);
      const all = verdicts(report);
      expect(Object.values(all).filter((v) => v !== 'passed' && v !== 'not_applicable'), JSON.stringify(all)).toEqual([]);
      // Passed, not merely not applicable: the count pins what really ran.
      expect(Object.values(all).filter((v) => v === 'passed').length, JSON.stringify(all)).toBe(c.passed);
      expect(report.verdict).toBe('conformant');
    });
  }
});
