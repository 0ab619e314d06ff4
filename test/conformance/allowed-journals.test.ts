// No false positives: journals that differ from the reference only where the contract leaves a choice pass.
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runConformance } from '../../harness/run-conformance.js';
import { ALLOWED_TARGETS } from './fit-targets.js';

const ALLOWED = fileURLToPath(new URL('../fixtures/allowed/allowed-journal.mjs', import.meta.url));

describe('journals that take a choice the contract leaves open', () => {
  for (const target of ALLOWED_TARGETS) {
    it(`${target.variant} passes ${target.scenarios.length} scenario(s)`, async () => {
      const report = await runConformance({
        launch: { kind: 'module', module: ALLOWED, options: { variant: target.variant } },
        scenarioPatterns: [...target.scenarios],
        tags: [],
        seed: 1,
        shard: null,
        expectFailures: new Set(),
        keep: 'none',
        timeoutMs: 10_000,
        argv: ['run'],
      });
      const verdicts = Object.fromEntries(report.scenarios.map((s) => [s.id, s.verdict === 'passed' ? 'passed' : `${s.verdict}: ${s.reason}`]));
      // Passed, not merely not-applicable: the variant must really have been exercised.
      expect(verdicts).toEqual(Object.fromEntries(target.scenarios.map((id) => [id, 'passed'])));
      expect(report.verdict).toBe('conformant');
    });
  }
});
