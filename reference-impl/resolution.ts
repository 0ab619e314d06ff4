// reconcile (tiers 1/2, reconciling mode only) and operator resolution of unresolved rows.
import type { EffectRow, ReconcileRequest, ReconcileResult, ResolveRequest } from '../shared/protocol/schemas.js';
import { JournalError } from '../harness/journal-interface.js';
import { canonicalJson } from '../shared/canonical-json.js';
import { requireRow, rowById, type JournalContext } from './context.js';
import { isUnresolved, toEffectRow, type RowRecord } from './schema.js';
import { stmt, writeTransaction } from './sqlite.js';

/** Applies target evidence to an unresolved or committed-unretained run row of tier 1 or 2. */
export function reconcileEffect(ctx: JournalContext, req: ReconcileRequest): ReconcileResult {
  if (ctx.tierMode !== 'reconciling') {
    throw new JournalError('reconcile_invalid', 'this journal runs in conservative mode: no tier 1/2 reconciler exists');
  }
  return writeTransaction(ctx.db, () => {
    const row = requireRow(ctx.db, req.effectId, 'reconcile_invalid');
    const why = reconcileRejection(row, req);
    if (why) throw new JournalError('reconcile_invalid', `cannot reconcile effect ${req.effectId}: ${why}`);
    const now = ctx.now();
    const evidence = req.evidence;
    if (evidence.kind === 'receipt_absent') {
      // Proven absent: the engine executes once under the stored key and settles this same row.
      stmt(ctx.db, `UPDATE run_effects SET state = 'prepared', result_json = NULL, updated_at = ? WHERE id = ?`).run(now, row.id);
      return { effectId: String(row.id), state: 'prepared', execute: { idempotencyKey: row.idempotency_key ?? '' } };
    }
    stmt(ctx.db, `UPDATE run_effects SET state = 'committed', result_json = ?, updated_at = ? WHERE id = ?`).run(
      canonicalJson(evidence.result),
      now,
      row.id,
    );
    return { effectId: String(row.id), state: 'committed', execute: null };
  });
}

/** Records an operator's accepted/discarded decision on an unresolved row. */
export function resolveEffect(ctx: JournalContext, req: ResolveRequest): EffectRow {
  return writeTransaction(ctx.db, () => {
    const row = requireRow(ctx.db, req.effectId, 'resolve_invalid');
    if (!isUnresolved(row)) {
      const why = row.resolution !== null ? `already resolved as ${row.resolution}` : 'it is committed';
      throw new JournalError('resolve_invalid', `effect ${req.effectId} cannot be resolved: ${why}`);
    }
    const at = ctx.now();
    stmt(ctx.db, 'UPDATE run_effects SET resolution = ?, resolution_actor = ?, resolution_at = ?, updated_at = ? WHERE id = ?').run(
      req.decision,
      req.actor,
      at,
      at,
      row.id,
    );
    const updated = rowById(ctx.db, req.effectId);
    if (!updated) throw new JournalError('internal', `effect ${req.effectId} vanished inside its own transaction`);
    return toEffectRow(updated);
  });
}

function reconcileRejection(row: RowRecord, req: ReconcileRequest): string | null {
  if (row.scope_kind !== 'run') return 'session effects are disclosed, never reconciled';
  const unretainedCommit = row.state === 'committed' && row.result_json === null;
  if (!isUnresolved(row) && !unretainedCommit) return `it is ${row.state}${row.resolution ? ` (${row.resolution})` : ''} with nothing to reconcile`;
  if (row.idempotency_key === null) return 'it has no stored idempotency key';
  const kind = req.evidence.kind;
  if (row.tier === 1 && kind === 'retried_with_key') return null;
  if (row.tier === 2 && (kind === 'receipt_found' || kind === 'receipt_absent')) return null;
  return `evidence ${kind} does not apply to a tier ${row.tier} effect`;
}
