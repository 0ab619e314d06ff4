// settle: the second durable write, right after the effect returned (or failed to).
import type { SettleRequest, SettleResult } from '../shared/protocol/schemas.js';
import { JournalError } from '../harness/journal-interface.js';
import { canonicalJson } from '../shared/canonical-json.js';
import type { JournalContext } from './context.js';
import { parseEffectId } from './schema.js';
import { stmt, writeTransaction, type Db } from './sqlite.js';

/** Settles a prepared row as committed (result retained for run rows) or ambiguous. */
export function settleEffect(ctx: JournalContext, req: SettleRequest): SettleResult {
  const result = writeTransaction(ctx.db, () => {
    const row = settleTarget(ctx.db, req.effectId);
    if (row.state !== 'prepared') {
      throw new JournalError('settle_already_settled', `effect ${req.effectId} is ${row.state}, not prepared`);
    }
    // Injected before any write so the failed settle leaves the row exactly as prepare wrote it.
    if (ctx.faults.has('settle_write_fails')) {
      throw new JournalError('settle_write_failed', `injected fault: the settle write for effect ${req.effectId} failed`);
    }
    const now = ctx.now();
    if (req.state === 'committed') {
      // A session row never holds a result: the supplied one is not even serialized (§11).
      const json = row.scope_kind === 'run' && req.result !== null ? canonicalJson(req.result) : null;
      stmt(ctx.db, `UPDATE run_effects SET state = 'committed', result_json = ?, updated_at = ? WHERE id = ?`).run(json, now, row.id);
    } else {
      stmt(ctx.db, `UPDATE run_effects SET state = 'ambiguous', ambiguous_reason = ?, updated_at = ? WHERE id = ?`).run(
        req.reason,
        now,
        row.id,
      );
    }
    ctx.crashpoint('settle.before-commit');
    return { effectId: String(row.id), state: req.state };
  });
  ctx.crashpoint('settle.after-commit');
  return result;
}

// Only the columns settle decides on: a full row costs as much to build as the rest of the settle.
function settleTarget(db: Db, effectId: string): { id: number; scope_kind: 'run' | 'session'; state: string } {
  const id = parseEffectId(effectId);
  const row = id === null ? undefined : stmt(db, 'SELECT id, scope_kind, state FROM run_effects WHERE id = ?').get(id);
  if (!row) throw new JournalError('settle_no_row', `no effect row with id ${JSON.stringify(effectId)}`);
  return row as { id: number; scope_kind: 'run' | 'session'; state: string };
}
