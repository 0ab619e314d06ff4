// No false positives from the third spec-only round's scenarios (BLIND3 below): journals without such a bug (the blind3 journals' correct bases, the
// log and Python example journals) pass every one. The reference runs them in the full matrix
// (test/reports/witness.test.ts); that each catches its broken journal is in broken-journals.test.ts.
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../runner/run-conformance.js';
import { BLIND3_CLEAN } from './blind3-targets.js';

// The third spec-only round's scenarios (their old ids began blind3.).
const BLIND3 = ['concurrency.interleaved-writers-keep-rows', 'identity.tool-ids-exact', 'digest.near-miss-credential-names-count'];

describe('the third spec-only round scenarios against journals without a blind3 bug', () => {
  for (const c of BLIND3_CLEAN) {
    it(`${c.name} passes the ${c.passed} it can run`, async () => {
      const report = await runConformance({ launch: c.launch, scenarioPatterns: BLIND3, tags: [], seed: 1, shard: null, expectFailures: new Set(), keep: 'none', timeoutMs: 10_000, argv: ['run'] });
      const all = Object.fromEntries(report.scenarios.map((s) => [s.id, s.verdict === 'passed' || s.verdict === 'not_applicable' ? s.verdict : `${s.verdict}: ${s.reason ?? ''}`]));
      expect(Object.keys(all).sort(), 'every blind3.* scenario was selected').toEqual([...BLIND3].sort());
      expect(Object.values(all).filter((v) => v !== 'passed' && v !== 'not_applicable'), JSON.stringify(all)).toEqual([]);
      expect(Object.values(all).filter((v) => v === 'passed').length, JSON.stringify(all)).toBe(c.passed);
    });
  }
});
