// No false positives from the S8e/KXM red team's scenarios: the reference in both tier modes, the from-scratch KXM file
// journal (the base of two broken ones), the Python, log and from-scratch journals pass every one they can run. That
// each scenario catches its broken journal, as a failure, is proven in broken-journals.test.ts (S8E_KXM_TARGETS).
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../runner/run-conformance.js';
import { S8E_KXM_CLEAN, S8E_KXM_SCENARIOS } from './s8e-kxm-targets.js';

describe('S8e/KXM red-team scenarios against journals without such a bug', () => {
  for (const c of S8E_KXM_CLEAN) {
    it(`${c.name} passes the ${c.passed} it can run`, async () => {
      const report = await runConformance({ launch: c.launch, scenarioPatterns: [...S8E_KXM_SCENARIOS], tags: [], seed: 1, shard: null, expectFailures: new Set(), keep: 'none', timeoutMs: 10_000, argv: ['run'] });
      const all = Object.fromEntries(report.scenarios.map((s) => [s.id, s.verdict === 'passed' || s.verdict === 'not_applicable' ? s.verdict : `${s.verdict}: ${s.reason ?? ''}`]));
      expect(Object.keys(all).sort(), 'every scenario was selected').toEqual([...S8E_KXM_SCENARIOS]);
      expect(Object.values(all).filter((v) => v !== 'passed' && v !== 'not_applicable'), JSON.stringify(all)).toEqual([]);
      // Passed, not merely not applicable: the count pins what really ran.
      expect(Object.values(all).filter((v) => v === 'passed').length, JSON.stringify(all)).toBe(c.passed);
    });
  }
});
