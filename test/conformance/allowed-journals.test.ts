// No false positives: journals that differ from the reference only where the contract leaves a choice pass, both the
// fixed scenarios that touch their choice and generated exploration.
//
// CI explores a few generated trials per variant; the long walk (at least 300 trials over three seeds per variant):
//   EJC_ALLOWED_WALK=full npx vitest run test/conformance/allowed-journals.test.ts -t exploration
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runTargetScenarios } from './run-targets.js';
import { ALLOWED_TARGETS, EXPLORED_VARIANTS } from './fit-targets.js';
import { exploreConformance } from '../../harness/explore/run-explore.js';

const ALLOWED = fileURLToPath(new URL('../fixtures/allowed/allowed-journal.mjs', import.meta.url));
const FULL = process.env['EJC_ALLOWED_WALK'] === 'full';
/** Seeds and trials per seed: the long walk is 3 × 100 per variant; CI replays the start of the first stream. */
const WALK = FULL ? { seeds: [1, 2, 3], trials: 100 } : { seeds: [1], trials: 3 };

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

describe('exploration of journals that take a choice the contract leaves open', () => {
  for (const variant of EXPLORED_VARIANTS) {
    for (const seed of WALK.seeds) {
      it(`${variant}: ${WALK.trials} generated trial(s) of seed ${seed} pass`, { timeout: FULL ? 3_600_000 : 600_000 }, async () => {
        const report = await exploreConformance({
          launch: { kind: 'module', module: ALLOWED, options: { variant } },
          timeoutMs: 10_000, seed, trials: WALK.trials, budgetMs: null, jobs: 1, shard: null, maxShrinks: 0,
          profile: 'mixed', keep: 'none', replay: null, argv: ['explore'],
        });
        const failed = report.scenarios.filter((s) => s.verdict !== 'passed').map((s) => `${s.id}: ${s.verdict}: ${s.reason}`);
        expect(failed).toEqual([]);
        expect(report.verdict).toBe('conformant');
      });
    }
  }
});
