// No false positives: journals that differ from the reference only where the contract leaves a choice pass.
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runTargetScenarios } from './run-targets.js';
import { ALLOWED_TARGETS } from './fit-targets.js';

const ALLOWED = fileURLToPath(new URL('../fixtures/allowed/allowed-journal.mjs', import.meta.url));

describe('journals that take a choice the contract leaves open', () => {
  for (const target of ALLOWED_TARGETS) {
    it(`${target.variant} passes ${target.scenarios.length} scenario(s)`, async () => {
      const report = await runTargetScenarios(ALLOWED, { variant: target.variant }, target.scenarios);
      const verdicts = Object.fromEntries(report.scenarios.map((s) => [s.id, s.verdict === 'passed' ? 'passed' : `${s.verdict}: ${s.reason}`]));
      // Passed, not merely not-applicable: the variant must really have been exercised.
      expect(verdicts).toEqual(Object.fromEntries(target.scenarios.map((id) => [id, 'passed'])));
      expect(report.verdict).toBe('conformant');
    });
  }
});
