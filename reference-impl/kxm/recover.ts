// KXM crash-matrix recovery: from the last durable evidence and the engine's observations, what to do with one effect.
import type { KxmEffectState, KxmRecoveryDecision, OpParams, OpResult } from '../../shared/protocol/schemas.js';
import type { JournalContext } from '../context.js';
import { isQueryable } from './classes.js';
import { leaseExpired, leaseFenced } from './dispatch.js';
import { requireKxmRow, type KxmRowRecord } from './schema.js';
import { stmt, writeTransaction } from '../sqlite.js';

type Observation = OpParams<'kxm.recover'>['observation'];

export interface RecoveryPlan {
  readonly decision: KxmRecoveryDecision;
  readonly state: KxmEffectState;
  readonly reason: string;
  readonly receiptId: string | null;
}

/** Records and answers the recovery decision for one effect after a restart. */
export function kxmRecover(ctx: JournalContext, p: OpParams<'kxm.recover'>): OpResult<'kxm.recover'> {
  const { db } = ctx;
  return writeTransaction(db, () => {
    const row = requireKxmRow(db, p.effectId);
    const plan = decideRecovery(row, p.observation, p.now, row.state === 'intent' && leaseFenced(db, row));
    const reconciled = row.state === 'dispatched' || row.state === 'blocked_uncertain' ? 1 : 0;
    stmt(
      db,
      `UPDATE kxm_effects SET state = ?, reconciliation_attempts = reconciliation_attempts + ?,
         blocked_reason = CASE WHEN ? = 'blocked_uncertain' THEN ? ELSE blocked_reason END,
         receipt_id = coalesce(?, receipt_id), receipt_source = CASE WHEN ? IS NULL THEN receipt_source ELSE 'query' END
       WHERE id = ?`,
    ).run(plan.state, reconciled, plan.state, plan.reason, plan.receiptId, plan.receiptId, row.id);
    return { effectId: p.effectId, decision: plan.decision, state: plan.state, attemptId: row.attempt_id, idempotencyKey: row.idempotency_key, reason: plan.reason };
  });
}

/** The KXM crash matrix as a pure function of the row, what the engine observed, and whether the lease was re-granted since. */
export function decideRecovery(row: KxmRowRecord, observation: Observation, now: number, fenced = false): RecoveryPlan {
  const keep = (decision: KxmRecoveryDecision, reason: string): RecoveryPlan => ({ decision, state: row.state, reason, receiptId: null });
  const block = (reason: string): RecoveryPlan => ({ decision: 'blocked_uncertain', state: 'blocked_uncertain', reason, receiptId: null });
  switch (row.state) {
    case 'completed':
    case 'failed':
    case 'cancelled':
    case 'not_started':
      return keep('none', `effect is ${row.state}`);
    case 'blocked_uncertain':
      // Only an evidence-backed resolution leaves this state; a later observation is not retroactive proof.
      return keep('blocked_uncertain', row.blocked_reason ?? 'blocked');
    case 'intent':
      // The dispatch mark precedes every start, so an intent without one provably never started.
      if (leaseExpired(row, now)) return { decision: 'lease_expired', state: 'not_started', reason: 'the lease expired before dispatch', receiptId: null };
      if (fenced) return { decision: 'lease_fenced', state: 'not_started', reason: 'the lease was re-granted under a higher fencing token', receiptId: null };
      return keep('start_planned_attempt', 'intent recorded; the process provably never started');
    case 'dispatched':
      return decideDispatched(row, observation, block, keep);
  }
}

function decideDispatched(
  row: KxmRowRecord,
  observation: Observation,
  block: (reason: string) => RecoveryPlan,
  keep: (decision: KxmRecoveryDecision, reason: string) => RecoveryPlan,
): RecoveryPlan {
  const replaced = observation.process === 'replacement_exists';
  if (observation.process === 'alive_same') return keep('reattach', 'the exact process is still alive');
  const cls = row.effect_class;
  if (cls === 'read-only') return keep('retry_bounded', 'read-only effects retry under a bounded policy');
  if (cls === 'workspace-mutation') {
    if (observation.postcondition === 'verified') return { decision: 'record_postcondition', state: 'completed', reason: 'workspace postcondition verified', receiptId: null };
    return block('workspace state cannot be compared deterministically with the intent');
  }
  if (!isQueryable(cls)) return block(`a ${cls} effect lost its acknowledgement; only evidence or a human can settle it`);
  const receipt = observation.receipt;
  if (receipt.kind === 'found') return { decision: 'record_receipt', state: 'completed', reason: 'stable external receipt found', receiptId: receipt.receiptId };
  if (receipt.kind === 'absent') {
    // A replacement process may still be acting, so absence observed now does not prove absence later.
    if (replaced) return block('receipt absent but a replacement process exists; not reattaching the old attempt');
    return keep('retry_same_key', 'receipt query proves absence; retry with the same deterministic key');
  }
  return block(`receipt query ${receipt.kind === 'not_queried' ? 'was not made' : `is ${receipt.kind}`}: the effect may or may not have happened`);
}
