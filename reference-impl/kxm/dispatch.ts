// The KXM dispatch fence: a durable intent (steps 2–5), a durable dispatch mark checked against the lease (step 6), completion (step 8).
import { JournalError } from '../../harness/journal-interface.js';
import type { OpParams, OpResult } from '../../shared/protocol/schemas.js';
import type { JournalContext } from '../context.js';
import { effectiveClass, idempotencyKey } from './classes.js';
import { requireKxmRow, runRecord, toKxmEffect, type KxmRowRecord } from './schema.js';
import { isUniqueViolation, stmt, writeTransaction, type Db } from '../sqlite.js';

/** Records a dispatch intent under the registry's class; refused once the run's cancellation was requested. */
export function kxmDeclare(ctx: JournalContext, p: OpParams<'kxm.declare'>): OpResult<'kxm.declare'> {
  const { db } = ctx;
  const resolved = effectiveClass(p.registry, p.toolId, p.declaredClass);
  let id: number;
  try {
    id = writeTransaction(db, () => {
      if (runRecord(db, p.runId).cancelRequested) return -1;
      const info = stmt(
        db,
        `INSERT INTO kxm_effects (run_id, step_id, assignment_id, attempt_id, slot, tool_id, effect_class, declared_class,
           declaration_accepted, registry_revision, receipt_query, idempotency_key, state, lease_id, fencing_token, lease_expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'intent', ?, ?, ?)`,
      ).run(
        p.runId,
        p.stepId,
        p.assignmentId,
        p.attemptId,
        p.slot,
        p.toolId,
        resolved.effectClass,
        p.declaredClass ?? null,
        resolved.declarationAccepted ? 1 : 0,
        p.registry.revision,
        resolved.receiptQuery,
        idempotencyKey(p.runId, p.assignmentId, p.slot, p.toolId),
        p.lease?.leaseId ?? null,
        p.lease?.fencingToken ?? null,
        p.lease?.expiresAt ?? null,
      );
      return Number(info.lastInsertRowid);
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const prior = stmt(db, 'SELECT id FROM kxm_effects WHERE run_id = ? AND assignment_id = ? AND slot = ?').get(p.runId, p.assignmentId, p.slot) as
      | { id: number }
      | undefined;
    return { verdict: 'refused', code: 'duplicate_identity', effectId: prior ? String(prior.id) : null, message: 'this assignment effect already has an intent' };
  }
  if (id < 0) return { verdict: 'refused', code: 'run_cancelled', effectId: null, message: `run ${p.runId} is being cancelled: no new dispatches` };
  ctx.crashpoint('kxm.declare.after-commit');
  return { verdict: 'recorded', effect: toKxmEffect(db, requireKxmRow(db, String(id))) };
}

/** Marks the effect dispatched just before the engine starts it; an expired or fenced lease or a cancelled run leaves it unstarted. */
export function kxmDispatch(ctx: JournalContext, p: OpParams<'kxm.dispatch'>): OpResult<'kxm.dispatch'> {
  const { db } = ctx;
  const result = writeTransaction(db, () => {
    const row = requireKxmRow(db, p.effectId);
    if (row.state !== 'intent') throw new JournalError('kxm_invalid', `effect ${p.effectId} is ${row.state}, not an undispatched intent`);
    if (row.attempt_id !== p.attemptId) throw new JournalError('kxm_invalid', `effect ${p.effectId} plans attempt ${row.attempt_id}, not ${p.attemptId}`);
    const reason = runRecord(db, row.run_id).cancelRequested ? 'run_cancelled' : leaseRefusal(db, row, p.now);
    const state = reason === 'run_cancelled' ? 'cancelled' : reason === null ? 'dispatched' : 'not_started';
    stmt(db, 'UPDATE kxm_effects SET state = ? WHERE id = ?').run(state, row.id);
    return { effectId: p.effectId, started: reason === null, reason, state, idempotencyKey: row.idempotency_key } as const;
  });
  ctx.crashpoint('kxm.dispatch.after-commit');
  return result;
}

/** Records the observed result's receipt: the effect is completed and never dispatched again. */
export function kxmComplete(ctx: JournalContext, p: OpParams<'kxm.complete'>): OpResult<'kxm.complete'> {
  const { db } = ctx;
  writeTransaction(db, () => {
    const row = requireKxmRow(db, p.effectId);
    if (row.state !== 'dispatched') throw new JournalError('kxm_invalid', `effect ${p.effectId} is ${row.state}, not dispatched`);
    if (row.attempt_id !== p.attemptId) throw new JournalError('kxm_invalid', `effect ${p.effectId} runs attempt ${row.attempt_id}, not ${p.attemptId}`);
    stmt(db, "UPDATE kxm_effects SET state = 'completed', receipt_id = ?, receipt_source = 'completion' WHERE id = ?").run(p.receiptId, row.id);
    ctx.crashpoint('kxm.complete.before-commit');
  });
  return toKxmEffect(db, requireKxmRow(db, p.effectId));
}

/** The lease fence: an operation whose lease ran out before dispatch must not start. */
export function leaseExpired(row: KxmRowRecord, now: number): boolean {
  return row.lease_expires_at !== null && now >= row.lease_expires_at;
}

/** Why the lease forbids starting this intent now, or null when it does not (or the effect holds no lease). */
export function leaseRefusal(db: Db, row: KxmRowRecord, now: number): 'lease_expired' | 'lease_fenced' | null {
  if (leaseExpired(row, now)) return 'lease_expired';
  return leaseFenced(db, row) ? 'lease_fenced' : null;
}

/** True when the journal has seen the same lease under a higher fencing token: it was re-granted, this holder is stale. */
export function leaseFenced(db: Db, row: KxmRowRecord): boolean {
  if (row.lease_id === null || row.fencing_token === null) return false;
  // The journal is the fenced resource: the highest token any intent recorded for the lease is the current grant.
  const top = stmt(db, 'SELECT max(fencing_token) AS top FROM kxm_effects WHERE lease_id = ?').get(row.lease_id) as { top: number | null };
  return top.top !== null && top.top > row.fencing_token;
}
