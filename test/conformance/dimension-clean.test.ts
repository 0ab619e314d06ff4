// No false positives from the dimensions' scenarios (public values, colliding ids, scale): the example journals pass
// every one they can run. That each catches its broken journal is in broken-journals.test.ts.
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../runner/run-conformance.js';
import { DIMENSION_CLEAN, DIMENSION_FAMILIES } from './dimension-targets.js';

describe('the dimensions\' scenarios against journals without such a bug', () => {
  for (const c of DIMENSION_CLEAN) {
    it(`${c.name} passes them`, async () => {
      const report = await runConformance({ launch: c.launch, scenarioPatterns: DIMENSION_FAMILIES, tags: [], seed: 1, shard: null, expectFailures: new Set(), keep: 'none', timeoutMs: 30_000, argv: ['run'] });
      const all = Object.fromEntries(report.scenarios.map((s) => [s.id, s.verdict === 'passed' ? s.verdict : `${s.verdict}: ${s.reason ?? ''}`]));
      expect(Object.keys(all).length, 'scenarios selected').toBeGreaterThanOrEqual(DIMENSION_FAMILIES.length);
      expect(Object.values(all).filter((v) => v !== 'passed'), JSON.stringify(all)).toEqual([]);
    });
  }
});
