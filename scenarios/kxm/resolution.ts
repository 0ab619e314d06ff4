// Leaving blocked_uncertain: each resolution refused without its evidence and applied, audited, with it.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { crashThenRestart, effectOf, expectWrites, kxmLogicalKey, kxmSpec, performAndComplete, receiptOf, recoverRun, startPlanned, T_LATE, type KxmSpec } from './support.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import type { KxmEffect, OpParams } from '../../shared/protocol/schemas.js';

const LANDED = 'kxm.complete.before-commit';
const NOT_LANDED = 'kxm.dispatch.after-commit';
const ACTOR = 'operator@example.test';
type Resolve = OpParams<'kxm.resolve'>;

export const kxmResolution: Scenario[] = [
  resolution('kxm.resolution.mark-completed', 'Mark completed needs an authoritative receipt', LANDED, 1, async (t, client, spec, effect) => {
    const receiptId = receiptOf(t.world.responsesFor(kxmLogicalKey(spec))[0] ?? '{"receipt":"none"}');
    const base = { effectId: effect.effectId, action: 'mark_completed', actor: ACTOR, reason: 'deploy log shows success' } as const;
    await refusedThenApplied(t, client, spec, { ...base, evidence: { receiptId, receiptAuthoritative: false } }, { ...base, evidence: { receiptId, receiptAuthoritative: true } }, 'completed');
    t.expect('receipt from the resolution', { receiptId, source: 'resolution' }, (await effectOf(client, spec))?.receipt);
  }),
  resolution('kxm.resolution.confirm-absent-retry', 'Confirm absent and retry needs a negative query and a new attempt id', NOT_LANDED, 1, async (t, client, spec, effect) => {
    const base = { effectId: effect.effectId, action: 'confirm_absent_retry', actor: ACTOR, reason: 'provider console shows no deploy' } as const;
    const fresh = t.rng.id('att');
    await refusedThenApplied(t, client, spec, { ...base, evidence: { negativeQueryAuthoritative: true, newAttemptId: effect.attemptId } }, { ...base, evidence: { negativeQueryAuthoritative: true, newAttemptId: fresh } }, 'intent');
    await startPlanned(t, client, spec, effect.effectId, fresh, T_LATE);
    const after = await effectOf(client, spec);
    t.expect('retried as the new attempt', { state: 'completed', attemptId: fresh }, { state: after?.state, attemptId: after?.attemptId });
  }),
  resolution('kxm.resolution.compensate-retry', 'Compensate then retry needs a compensation receipt and a workflow-authorized new attempt', LANDED, 3, async (t, client, spec, effect) => {
    const base = { effectId: effect.effectId, action: 'compensate_retry', actor: ACTOR, reason: 'rolled back, redeploying' } as const;
    const fresh = t.rng.id('att');
    // The compensation is its own logical effect; the retry after it is a new one, not a repeat of the undone write.
    const comp = t.world.dispatch('deploy-script', 3, { logicalKey: `${kxmLogicalKey(spec)}/compensation`, idempotencyKey: `${effect.idempotencyKey}-undo`, payload: 'rollback' });
    const compensationReceiptId = receiptOf(comp.response);
    await refusedThenApplied(
      t,
      client,
      spec,
      { ...base, evidence: { compensationReceiptId, workflowAuthorized: false, newAttemptId: fresh } },
      { ...base, evidence: { compensationReceiptId, workflowAuthorized: true, newAttemptId: fresh } },
      'intent',
    );
    const dispatch = await client.op('kxm.dispatch', { effectId: effect.effectId, attemptId: fresh, now: T_LATE });
    if (dispatch.started) await performAndComplete(t, client, spec, effect.effectId, fresh, dispatch.idempotencyKey, `${kxmLogicalKey(spec)}/after-compensation`);
    t.expect('final state', 'completed', (await effectOf(client, spec))?.state);
  }),
  resolution('kxm.resolution.mark-failed', 'Mark failed is an audited decision: refused without a reason', LANDED, 1, async (t, client, spec, effect) => {
    const base = { effectId: effect.effectId, action: 'mark_failed', actor: ACTOR, evidence: {} } as const;
    await refusedThenApplied(t, client, spec, { ...base, reason: '' }, { ...base, reason: 'deploy window closed; abandon' }, 'failed');
    const again = await recoverRun(t, client, [spec]);
    t.expect('a failed effect is never recovered again', 'none', again[0]?.decision);
  }),
];

type Body = (t: TrialContext, client: JournalClient, spec: KxmSpec, effect: KxmEffect) => Promise<void>;

function resolution(id: string, title: string, point: string, writes: number, body: Body): Scenario {
  return defineScenario({
    id,
    title,
    spec: 'kxm-effects-and-recovery §blocked_uncertain (resolution options)',
    tags: ['kxm', 'resolution'],
    needs: ['kxm', `point:${point}`],
    description: `An unknown-class effect is SIGKILLed at ${point} and recovery blocks it; a resolution without its evidence is refused, with it applied and audited.`,
    asserts: ['recovery blocks the effect', 'without evidence: kxm_evidence_missing, still blocked', 'with evidence: applied, audit records actor and reason', `${writes} physical write(s), no duplicate`],
    async trial(t) {
      const spec = kxmSpec(t, 'deploy-script');
      await crashThenRestart(t, spec, point);
      const client = await t.driver();
      const decisions = await recoverRun(t, client, [spec]);
      t.expect('recovery decision', 'blocked_uncertain', decisions[0]?.decision);
      const effect = await effectOf(client, spec);
      if (!effect) throw new Error('the declared effect is missing after the restart');
      await body(t, client, spec, effect);
      expectWrites(t, writes);
    },
  });
}

async function refusedThenApplied(t: TrialContext, client: JournalClient, spec: KxmSpec, without: Resolve, withEvidence: Resolve, state: string): Promise<void> {
  const refused = await client.try('kxm.resolve', without);
  t.expect('without evidence: refused', 'kxm_evidence_missing', refused.ok ? `applied (${refused.result.state})` : refused.code);
  t.expect('still blocked after the refusal', 'blocked_uncertain', (await effectOf(client, spec))?.state);
  const applied = await client.op('kxm.resolve', withEvidence);
  t.expect('with evidence: resolved state', state, applied.state);
  const last = applied.audit.at(-1);
  t.expect('audit entry', { action: withEvidence.action, actor: withEvidence.actor, reason: withEvidence.reason }, last && { action: last.action, actor: last.actor, reason: last.reason });
}
