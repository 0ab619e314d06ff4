// No false positives: journals that differ from the reference only where the contract leaves a choice pass, both the
// fixed scenarios that touch their choice and generated exploration.
//
// CI explores a few generated trials per variant; the long walk (at least 300 trials over three seeds per variant):
//   EJC_ALLOWED_WALK=full npx vitest run test/conformance/allowed-journals.test.ts -t exploration
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runTargetScenarios } from './run-targets.js';
import { ALLOWED_TARGETS, EXPLORED_STORES, EXPLORED_VARIANTS } from './fit-targets.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exploreConformance } from '../../harness/explore/run-explore.js';
import { ejc } from '../cli/ejc-process.js';

const ALLOWED = fileURLToPath(new URL('../fixtures/allowed/allowed-journal.mjs', import.meta.url));
const FULL = process.env['EJC_ALLOWED_WALK'] === 'full';
/** Seeds and trials per seed: the long walk is 3 × 100 per variant, two trials at a time (a test file runs its tests one
 * after another, so one lane would leave a core idle for the hour); CI replays the start of the first stream. */
const WALK = FULL ? { seeds: [1, 2, 3], trials: 100, jobs: 2 } : { seeds: [1], trials: 3, jobs: 1 };

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
        await exploresClean(ALLOWED, { variant }, seed);
      });
    }
  }
});

describe('exploration of stores that are not SQLite', () => {
  for (const store of EXPLORED_STORES) {
    const module = fileURLToPath(new URL(store.module, import.meta.url));
    for (const seed of WALK.seeds) {
      it(`${store.name}: ${WALK.trials} generated trial(s) of seed ${seed} pass`, { timeout: FULL ? 3_600_000 : 600_000 }, async () => {
        await exploresClean(module, {}, seed);
      });
    }
  }
});

// The walk's trials of one seed against a journal module: every generated trial passes.
async function exploresClean(module: string, options: Record<string, string>, seed: number): Promise<void> {
  const report = await exploreConformance({
    launch: { kind: 'module', module, options },
    // A bound on a hung journal, never a speed check: the long walk runs for hours beside other work.
    timeoutMs: FULL ? 60_000 : 10_000, seed, trials: WALK.trials, budgetMs: null, jobs: WALK.jobs, shard: null, maxShrinks: 0,
    profile: 'mixed', keep: 'none', replay: null, argv: ['explore'],
  });
  const failed = report.scenarios.filter((s) => s.verdict !== 'passed').map((s) => `${s.id}: ${s.verdict}: ${s.reason}`);
  expect(failed).toEqual([]);
  expect(report.verdict).toBe('conformant');
}

describe('outcome digests over what the harness decides', () => {
  const KEYED = ['cp09.tier1.after-dispatch.reconciling', 'identity.tier1-key.never-repeats', 'cp06.two-effects.kill-between'];

  it('a journal with random nonces in its tier-1 keys: the same seed twice gives equal outcome digests', async () => {
    const [a, b] = [await runTargetScenarios(ALLOWED, { variant: 'random-keys' }, KEYED), await runTargetScenarios(ALLOWED, { variant: 'random-keys' }, KEYED)];
    expect(a.verdict).toBe('conformant');
    // The keys really differed: the digest is equal because they are named by their rows, not because none was seen.
    const keys = (r: typeof a): string[] => JSON.stringify(r.scenarios).match(/nk-[0-9a-f]{24}/g) ?? [];
    expect(keys(a).length).toBeGreaterThan(0);
    expect(keys(a).filter((k) => keys(b).includes(k))).toEqual([]);
    expect(b.outcomeDigest).toBe(a.outcomeDigest);
  });

  it('and exploration of it gives equal outcome digests for the same seed', { timeout: 900_000 }, async () => {
    const explore = () => exploreConformance({
      launch: { kind: 'module', module: ALLOWED, options: { variant: 'random-keys' } },
      timeoutMs: 10_000, seed: 4, trials: 2, budgetMs: null, jobs: 1, shard: null, maxShrinks: 0,
      profile: 'mixed', keep: 'none', replay: null, argv: ['explore'],
    });
    const [a, b] = [await explore(), await explore()];
    expect(a.verdict).toBe('conformant');
    expect(b.outcomeDigest).toBe(a.outcomeDigest);
  });

  it('verify --rerun of its report agrees', async () => {
    const out = mkdtempSync(join(tmpdir(), 'ejc-allowed-rerun-'));
    try {
      const run = await ejc(['run', '--impl', ALLOWED, '--impl-option', 'variant=random-keys', ...KEYED.flatMap((id) => ['--scenario', id]), '--out', out]);
      expect(run.exitCode, run.stderr).toBe(0);
      const verify = await ejc(['verify', join(out, 'report.json'), '--rerun', '--impl', ALLOWED, '--impl-option', 'variant=random-keys']);
      expect(verify.exitCode, `${verify.stdout}\n${verify.stderr}`).toBe(0);
      expect(verify.stdout + verify.stderr).toMatch(/rerun reproduces the outcome digest/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
