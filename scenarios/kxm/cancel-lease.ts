// Supervised cancellation (cancelled only without unresolved effects) and lease fencing before and after dispatch.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { crashAt, crashThenRestart, declareParams, effectOf, expectWrites, kxmLogicalKey, kxmSpec, leaseFor, receiptOf, recoverRun, runEffect, T_LATE } from './support.js';

const ACTOR = 'operator@example.test';

export const kxmCancelLease: Scenario[] = [
  defineScenario({
    id: 'kxm.cancel.no-unresolved',
    title: 'Cancellation with no unresolved effect: never-started intents are cancelled and the run is cancelled',
    spec: 'kxm-effects-and-recovery §Cancellation',
    tags: ['kxm', 'cancellation'],
    needs: ['kxm', 'point:kxm.declare.after-commit'],
    description: 'One effect completes, a second is SIGKILLed right after its intent committed; cancelling the run settles it.',
    asserts: ['a cancel without a reason is refused', 'the run is cancelled; the intent is cancelled', 'recovery starts nothing after cancellation', 'new dispatches are refused', 'one physical write'],
    async trial(t) {
      const done = kxmSpec(t, 'kv-put');
      const pending = kxmSpec(t, 'github-pr', { runId: done.runId, slot: 1 });
      await crashAt(t, 'kxm.declare.after-commit', async (client) => {
        await runEffect(t, client, done);
        return runEffect(t, client, pending);
      }, 2);
      const client = await t.driver();
      const unaudited = await client.try('kxm.cancel', { runId: done.runId, actor: ACTOR, reason: '' });
      t.expect('cancel without a reason', 'kxm_evidence_missing', unaudited.ok ? unaudited.result.state : unaudited.code);
      const cancel = await client.op('kxm.cancel', { runId: done.runId, actor: ACTOR, reason: 'superseded by run 2' });
      t.expect('run state', 'cancelled', cancel.state);
      t.expect('unresolved effects', [], cancel.unresolvedEffectIds);
      t.expect('never-started intent cancelled', 'cancelled', (await effectOf(client, pending))?.state);
      const decisions = await recoverRun(t, client, [done, pending]);
      t.expect('recovery after cancellation', ['none', 'none'], decisions.map((d) => d.decision));
      const late = await client.op('kxm.declare', declareParams(kxmSpec(t, 'kv-put', { runId: done.runId, slot: 2 })));
      t.expect('new dispatch after cancellation', 'run_cancelled', late.verdict === 'refused' ? late.code : late.verdict);
      expectWrites(t, 1);
    },
  }),
  defineScenario({
    id: 'kxm.cancel.unresolved-remains',
    title: 'Cancellation with an unresolved effect stays blocked_uncertain until the effect is resolved',
    spec: 'kxm-effects-and-recovery §Cancellation ("not made cosmetically cancelled")',
    tags: ['kxm', 'cancellation'],
    needs: ['kxm', 'point:kxm.complete.before-commit'],
    description: 'An unknown-class effect is SIGKILLed after the target applied it; recovery blocks; cancel must leave the uncertainty visible.',
    asserts: ['cancel answers blocked_uncertain naming the effect', 'new dispatches are refused', 'after an evidence-backed resolution, cancel completes', 'one physical write'],
    async trial(t) {
      const spec = kxmSpec(t, 'deploy-script');
      await crashThenRestart(t, spec, 'kxm.complete.before-commit');
      const client = await t.driver();
      await recoverRun(t, client, [spec]);
      const effect = await effectOf(client, spec);
      const first = await client.op('kxm.cancel', { runId: spec.runId, actor: ACTOR, reason: 'operator abort' });
      t.expect('cancel with an unresolved effect', { state: 'blocked_uncertain', unresolved: [effect?.effectId] }, { state: first.state, unresolved: first.unresolvedEffectIds });
      t.expect('run state as listed', 'blocked_uncertain', (await client.op('kxm.list', { runId: spec.runId })).run.state);
      const late = await client.op('kxm.declare', declareParams(kxmSpec(t, 'kv-put', { runId: spec.runId, slot: 1 })));
      t.expect('new dispatch while cancelling', 'run_cancelled', late.verdict === 'refused' ? late.code : late.verdict);
      const receiptId = receiptOf(t.world.responsesFor(kxmLogicalKey(spec))[0] ?? '{"receipt":"none"}');
      await client.op('kxm.resolve', { effectId: effect?.effectId ?? '', action: 'mark_completed', actor: ACTOR, reason: 'deploy verified', evidence: { receiptId, receiptAuthoritative: true } });
      const second = await client.op('kxm.cancel', { runId: spec.runId, actor: ACTOR, reason: 'operator abort' });
      t.expect('cancel after resolution', 'cancelled', second.state);
      expectWrites(t, 1);
    },
  }),
  defineScenario({
    id: 'kxm.lease.expired-before-dispatch',
    title: 'A lease that expired before dispatch: the operation is not started',
    spec: 'kxm-effects-and-recovery §Lease failure',
    tags: ['kxm', 'lease'],
    needs: ['kxm', 'point:kxm.declare.after-commit'],
    description: 'A shared mutable effect is SIGKILLed after its intent committed; the restart comes after the lease expired.',
    asserts: ['recovery answers lease_expired and the effect is not_started', 'a dispatch after expiry is refused', 'zero physical writes'],
    async trial(t) {
      const spec = kxmSpec(t, 'github-pr', { lease: leaseFor(t) });
      await crashThenRestart(t, spec, 'kxm.declare.after-commit');
      const client = await t.driver();
      const decisions = await recoverRun(t, client, [spec], { now: T_LATE });
      t.expect('recovery decision', 'lease_expired', decisions[0]?.decision);
      t.expect('effect state', 'not_started', (await effectOf(client, spec))?.state);
      const other = kxmSpec(t, 'github-pr', { lease: leaseFor(t) });
      const declared = await runEffect(t, client, other, T_LATE);
      t.expect('second intent recorded', 'recorded', declared.verdict);
      t.expect('dispatch after expiry', 'not_started', (await effectOf(client, other))?.state);
      expectWrites(t, 0);
    },
  }),
  defineScenario({
    id: 'kxm.lease.expired-after-dispatch',
    title: 'A lease that expired after dispatch: recovery queries the receipt and never assumes rollback',
    spec: 'kxm-effects-and-recovery §Lease failure',
    tags: ['kxm', 'lease'],
    needs: ['kxm', 'point:kxm.complete.before-commit'],
    description: 'A shared mutable effect reached the target, then the driver was SIGKILLed; the restart comes after the lease expired.',
    asserts: ['recovery records the found receipt', 'one physical write, no duplicate'],
    async trial(t) {
      const spec = kxmSpec(t, 'github-pr', { lease: leaseFor(t) });
      await crashThenRestart(t, spec, 'kxm.complete.before-commit');
      const client = await t.driver();
      const decisions = await recoverRun(t, client, [spec], { now: T_LATE });
      t.expect('recovery decision', 'record_receipt', decisions[0]?.decision);
      t.expect('effect state', 'completed', (await effectOf(client, spec))?.state);
      expectWrites(t, 1);
    },
  }),
];
