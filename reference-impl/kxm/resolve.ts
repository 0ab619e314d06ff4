// Leaving blocked_uncertain: evidence-backed resolutions and supervised cancellation, each an audited control-plane action.
import { JournalError } from '../../harness/journal-interface.js';
import type { KxmEffectState, OpParams, OpResult } from '../../shared/protocol/schemas.js';
import type { JournalContext } from '../context.js';
import { appendAudit, requireKxmRow, runEffects, runRecord, toKxmEffect } from './schema.js';
import { stmt, writeTransaction } from '../sqlite.js';

type Resolve = OpParams<'kxm.resolve'>;

/** Applies a resolution to a blocked effect only when its required evidence is present; otherwise kxm_evidence_missing. */
export function kxmResolve(ctx: JournalContext, p: Resolve): OpResult<'kxm.resolve'> {
  const { db } = ctx;
  writeTransaction(db, () => {
    const row = requireKxmRow(db, p.effectId);
    if (row.state !== 'blocked_uncertain') throw new JournalError('kxm_invalid', `effect ${p.effectId} is ${row.state}, not blocked_uncertain`);
    const missing = missingEvidence(p, row.attempt_id);
    if (missing !== null) throw new JournalError('kxm_evidence_missing', `${p.action} refused: ${missing}`);
    const outcome = outcomeOf(p, row.attempt_id);
    stmt(
      db,
      `UPDATE kxm_effects SET state = ?, attempt_id = ?, blocked_reason = NULL,
         receipt_id = coalesce(?, receipt_id), receipt_source = CASE WHEN ? IS NULL THEN receipt_source ELSE 'resolution' END
       WHERE id = ?`,
    ).run(outcome.state, outcome.attemptId, outcome.receiptId, outcome.receiptId, row.id);
    appendAudit(db, { runId: row.run_id, effectId: row.id, action: p.action, actor: p.actor, reason: p.reason, references: references(p), result: outcome.state });
  });
  return toKxmEffect(db, requireKxmRow(db, p.effectId));
}

/** Requests cancellation: stops new dispatches, cancels never-started intents, and marks the run cancelled only when nothing is unresolved. */
export function kxmCancel(ctx: JournalContext, p: OpParams<'kxm.cancel'>): OpResult<'kxm.cancel'> {
  const { db } = ctx;
  if (p.reason.trim() === '') throw new JournalError('kxm_evidence_missing', 'cancel refused: an audited cancellation needs a reason');
  return writeTransaction(db, () => {
    const effects = runEffects(db, p.runId);
    const cancelled = effects.filter((e) => e.state === 'intent');
    for (const e of cancelled) stmt(db, "UPDATE kxm_effects SET state = 'cancelled' WHERE id = ?").run(e.id);
    const unresolved = effects.filter((e) => e.state === 'dispatched' || e.state === 'blocked_uncertain').map((e) => String(e.id));
    const state = unresolved.length === 0 ? 'cancelled' : 'blocked_uncertain';
    stmt(
      db,
      `INSERT INTO kxm_runs (run_id, state, cancel_requested) VALUES (?, ?, 1)
       ON CONFLICT (run_id) DO UPDATE SET state = excluded.state, cancel_requested = 1`,
    ).run(p.runId, state);
    appendAudit(db, { runId: p.runId, effectId: null, action: 'cancel', actor: p.actor, reason: p.reason, references: unresolved, result: state });
    return { runId: p.runId, state, unresolvedEffectIds: unresolved, cancelledEffectIds: cancelled.map((e) => String(e.id)) };
  });
}

/** The run's cancellation state and every effect it declared. */
export function kxmList(ctx: JournalContext, p: OpParams<'kxm.list'>): OpResult<'kxm.list'> {
  const { db } = ctx;
  const run = runRecord(db, p.runId);
  return { run: { runId: p.runId, ...run }, effects: runEffects(db, p.runId).map((row) => toKxmEffect(db, row)) };
}

/** Why a resolution lacks its required evidence, or null when it is complete. */
export function missingEvidence(p: Resolve, currentAttempt: string): string | null {
  const e = p.evidence;
  if (p.reason.trim() === '') return 'an audited resolution needs a reason';
  const freshAttempt = e.newAttemptId !== undefined && e.newAttemptId !== currentAttempt;
  switch (p.action) {
    case 'mark_completed':
      return (e.receiptId !== undefined && e.receiptAuthoritative === true) || e.postconditionVerified === true
        ? null
        : 'needs an authoritative receipt or a verified postcondition';
    case 'confirm_absent_retry':
      if (e.negativeQueryAuthoritative !== true) return 'needs an authoritative negative query';
      return freshAttempt ? null : 'needs a new attemptId for the restarted process';
    case 'compensate_retry':
      if (e.compensationReceiptId === undefined) return 'needs a compensation receipt';
      if (e.workflowAuthorized !== true) return 'needs a workflow-authorized new attempt';
      return freshAttempt ? null : 'needs a new attemptId';
    case 'mark_failed':
      return null;
  }
}

function outcomeOf(p: Resolve, currentAttempt: string): { state: KxmEffectState; attemptId: string; receiptId: string | null } {
  switch (p.action) {
    case 'mark_completed':
      return { state: 'completed', attemptId: currentAttempt, receiptId: p.evidence.receiptId ?? null };
    case 'confirm_absent_retry':
    case 'compensate_retry':
      // A fresh planned attempt: the engine dispatches it through the same fence, under the same key.
      return { state: 'intent', attemptId: p.evidence.newAttemptId ?? currentAttempt, receiptId: null };
    case 'mark_failed':
      return { state: 'failed', attemptId: currentAttempt, receiptId: null };
  }
}

function references(p: Resolve): string[] {
  const e = p.evidence;
  return [e.receiptId, e.compensationReceiptId, e.newAttemptId].filter((r): r is string => r !== undefined);
}
