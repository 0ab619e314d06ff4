// No false positives from the spec-only-journal scenarios (BLIND below): journals without such a bug (the reference in its other tier mode, the
// Python, log and ledger journals) pass every one they can run. The reference in its default mode runs them in
// the full matrix (test/reports/witness.test.ts); that each catches its broken journal is in broken-journals.test.ts.
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../runner/run-conformance.js';
import { BLIND_CLEAN } from './blind-targets.js';

// The scenarios first written against journals built from the contract alone (their old ids began blind.).
const BLIND = ['identity.tier1-key.equal-args-distinct', 'kxm.lease.sub-second-expiry', 'retention.sibling-run-ids', 'disclosure.compacted-incomplete-turns'];

describe('the spec-only-journal scenarios against journals without a blind bug', () => {
  for (const c of BLIND_CLEAN) {
    it(`${c.name} passes the ${c.passed} it can run`, async () => {
      const report = await runConformance({ launch: c.launch, scenarioPatterns: BLIND, tags: [], seed: 1, shard: null, expectFailures: new Set(), keep: 'none', timeoutMs: 10_000, argv: ['run'] });
      const all = Object.fromEntries(report.scenarios.map((s) => [s.id, s.verdict === 'passed' || s.verdict === 'not_applicable' ? s.verdict : `${s.verdict}: ${s.reason ?? ''}`]));
      expect(Object.keys(all).sort(), 'every one of these scenarios was selected').toEqual([...BLIND].sort());
      expect(Object.values(all).filter((v) => v !== 'passed' && v !== 'not_applicable'), JSON.stringify(all)).toEqual([]);
      // Passed, not merely not applicable: the count pins what really ran.
      expect(Object.values(all).filter((v) => v === 'passed').length, JSON.stringify(all)).toBe(c.passed);
    });
  }
});
