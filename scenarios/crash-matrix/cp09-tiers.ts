// Crash point 9: points 2/3 on tier 1, 2 and 3 targets, in reconciling and conservative implementations.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { crashDuringRun, defaultCall, singleNodeRun, snapshotAfter, snapshotBefore } from '../support.js';
import { resumeRun } from '../../harness/engine/run-engine.js';
import type { BoundaryName } from '../../harness/engine/crash-plan.js';
import type { Tier } from '../../shared/protocol/schemas.js';
import { expectGate } from '../../harness/model/gate-table.js';

export const cp09: Scenario[] = [
  reconciling('cp09.tier1.after-prepare.reconciling', 1, 'after-prepare', 'retry_with_key', { writes: 1, attempts: 1 }),
  reconciling('cp09.tier1.after-dispatch.reconciling', 1, 'after-dispatch', 'retry_with_key', { writes: 1, attempts: 2 }),
  reconciling('cp09.tier2.receipt-absent.reconciling', 2, 'after-prepare', 'reconcile_receipt', { writes: 1, attempts: 1 }),
  reconciling('cp09.tier2.receipt-found.reconciling', 2, 'after-dispatch', 'reconcile_receipt', { writes: 1, attempts: 1 }),
  conservative('cp09.tier1.conservative', 1),
  conservative('cp09.tier2.conservative', 2),
  conservative('cp09.tier3.reconciling', 3, 'tierMode:reconciling'),
];

function callFor(tier: Tier) {
  return defaultCall({ tier, target: `target-tier${tier}` });
}

function reconciling(id: string, tier: 1 | 2, boundary: BoundaryName, action: string, expected: { writes: number; attempts: number }): Scenario {
  const how = tier === 1 ? 'retries under the stored idempotency key; the target deduplicates' : boundary === 'after-prepare' ? 'looks up a receipt, finds it absent, executes once' : 'looks up a receipt, finds it, commits without re-executing';
  return defineScenario({
    id,
    title: `Tier ${tier}, killed ${boundary.replace('after-', 'after the ')}: the engine ${how}`,
    spec: 'effect-journal §12.9, §1, §4',
    tags: ['crash-matrix', 'run', 'tiers', `tier${tier}`],
    needs: ['tierMode:reconciling'],
    description: `SIGKILL at ${boundary} on a tier-${tier} target; a reconciling journal's gate asks for ${action}.`,
    asserts: [`the gate asks for ${action}`, 'after reconciliation the gate passes and the re-run replays', `${expected.writes} physical write(s), ${expected.attempts} dispatch attempt(s)`, 'no duplicate writes'],
    async trial(t) {
      const run = singleNodeRun(t, { calls: [callFor(tier)] });
      await crashDuringRun(t, run, { kind: 'boundary', boundary });
      const client = await t.driver();
      await snapshotBefore(t, client);
      const out = await resumeRun(t, client, run);
      // The model: one unresolved row before reconciliation, the same row committed with its result after it.
      const before = expectGate([{ tier, state: 'unresolved', retained: false }], t.capabilities.tierMode);
      t.expect('first gate decision', before.decision, out.gates[0]?.decision);
      t.check('gate action', action, out.gates[0]?.effects[0]?.action, before.actions[0] === action && out.gates[0]?.effects[0]?.action === action);
      t.expect('gate after reconciliation', expectGate([{ tier, state: 'committed', retained: true }], t.capabilities.tierMode).decision, out.gates[1]?.decision);
      t.expect('re-run prepare verdict', 'replay', out.verdicts[0]?.verdict.verdict);
      t.expect('run status', 'completed', out.status);
      const counts = t.world.counts();
      t.expect('physical writes', expected.writes, counts.physicalWrites);
      t.expect('dispatch attempts', expected.attempts, counts.dispatchAttempts);
      t.expect('duplicate writes', 0, counts.duplicateWrites);
      await snapshotAfter(t, client);
    },
  });
}

function conservative(id: string, tier: Tier, need: 'tierMode:conservative' | 'tierMode:reconciling' = 'tierMode:conservative'): Scenario {
  return defineScenario({
    id,
    title: tier === 3 ? 'Tier 3 after dispatch: needs attention even in a reconciling journal' : `Tier ${tier} in a conservative journal: refused like tier 3, naming tier ${tier}`,
    spec: 'effect-journal §12.9, §4 ("tiers 1 and 2 currently take tier 3\'s row")',
    tags: ['crash-matrix', 'run', 'tiers', `tier${tier}`],
    needs: [need],
    description: `SIGKILL after the dispatch to a tier-${tier} target; without a reconciler the gate must refuse and name the tier.`,
    asserts: ['the gate refuses with effect_needs_attention', `the refusal names tier ${tier}`, 'one physical write, nothing retried'],
    async trial(t) {
      const run = singleNodeRun(t, { calls: [callFor(tier)] });
      await crashDuringRun(t, run, { kind: 'boundary', boundary: 'after-dispatch' });
      const client = await t.driver();
      await snapshotBefore(t, client);
      const out = await resumeRun(t, client, run);
      const expected = expectGate([{ tier, state: 'unresolved', retained: false }], t.capabilities.tierMode);
      t.expect('gate decision', expected.decision, out.gates[0]?.decision);
      t.expect('refusal code', expected.refusal?.code, out.gates[0]?.refusal?.code);
      t.expect('refusal names the tier', expected.refusal?.tiers[0], out.gates[0]?.refusal?.tier);
      t.expect('physical writes', 1, t.world.counts().physicalWrites);
      t.expect('dispatch attempts', 1, t.world.counts().dispatchAttempts);
      await snapshotAfter(t, client);
    },
  });
}
