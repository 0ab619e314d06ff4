// Proof that the scenarios bite: every deliberately broken journal fails a scenario, and every scenario catches one.
import { afterAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runTargetScenarios } from './run-targets.js';
import { listScenarios } from '../../scenarios/catalog.js';
import { DEFECT_TARGETS } from './defect-targets.js';
import { FIT_TARGETS } from './fit-targets.js';
import { EDGE_TARGETS } from './edge-targets.js';
import { S8E_KXM_TARGETS } from './s8e-kxm-targets.js';
import { CLAIM_TARGETS } from './claim-targets.js';
import { SECRET_TARGETS } from './secret-targets.js';
import { BLIND_TARGETS } from './blind-targets.js';
import { BLIND2_TARGETS } from './blind2-targets.js';
import { BLIND3_TARGETS } from './blind3-targets.js';
import { GAP_TARGETS } from './gap-targets.js';
import { GENERATED_TARGETS } from './generated-targets.js';
import { EVASIVE_TARGETS } from './evasive-targets.js';
import { CLOCK_TARGETS } from './clock-targets.js';
import { OP_SWEEP_TARGETS } from './op-sweep-targets.js';
import { LONG_LIVED_TARGETS } from './long-lived-targets.js';
import { DIMENSION_TARGETS } from './dimension-targets.js';

const BROKEN = fileURLToPath(new URL('../broken/broken-journal.mjs', import.meta.url));
const FIT = fileURLToPath(new URL('../broken/fit-journals.mjs', import.meta.url));
const CATALOGUE = [...DEFECT_TARGETS.map((target) => ({ module: BROKEN, target })), ...FIT_TARGETS.map((target) => ({ module: FIT, target })), ...EDGE_TARGETS, ...S8E_KXM_TARGETS, ...CLAIM_TARGETS, ...SECRET_TARGETS, ...BLIND_TARGETS, ...BLIND2_TARGETS, ...BLIND3_TARGETS, ...GAP_TARGETS, ...GENERATED_TARGETS, ...EVASIVE_TARGETS, ...CLOCK_TARGETS, ...OP_SWEEP_TARGETS, ...LONG_LIVED_TARGETS, ...DIMENSION_TARGETS];
const caughtBy = new Map<string, string[]>();

describe('deliberately broken journals', () => {
  for (const { module, target } of CATALOGUE) {
    it(`${target.defect} is caught`, async () => {
      target.before?.();
      const run = (seed: number) => runTargetScenarios(module, { defect: target.defect, ...(target.options ?? {}) }, target.scenarios, seed);
      let report = await run(1).finally(() => target.after?.());
      for (let seed = 2; seed <= (target.attempts ?? 1) && !report.scenarios.some((s) => s.verdict === 'failed'); seed++) {
        target.before?.();
        report = await run(seed).finally(() => target.after?.());
      }
      const failed = report.scenarios.filter((s) => s.verdict === 'failed').map((s) => s.id);
      for (const id of failed) caughtBy.set(id, [...(caughtBy.get(id) ?? []), target.defect]);
      // A defect must show up as a failure, not hide as inconclusive: the evidence has to be a broken assertion.
      expect(failed, `no targeted scenario failed for ${target.defect}: ${JSON.stringify(report.scenarios.map((s) => [s.id, s.verdict, s.reason]))}`).not.toEqual([]);
      expect(report.verdict).toBe('nonconformant');
      target.evidence?.(report);
    });
  }

  afterAll(() => {
    // Printed so a reader sees which defect proves which scenario.
    for (const [id, defects] of [...caughtBy].sort()) process.stdout.write(`${id} ← ${defects.join(', ')}\n`);
  });

  it('every scenario fails against at least one broken journal', () => {
    const uncaught = listScenarios().map((s) => s.id).filter((id) => !caughtBy.has(id));
    expect(uncaught).toEqual([]);
  });
});
