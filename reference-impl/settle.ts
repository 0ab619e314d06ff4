// settle: the second durable write, right after the effect returned (or failed to).
import type { SettleRequest, SettleResult } from '../harness/protocol/schemas.js';
import { JournalError } from '../harness/journal-interface.js';
import { canonicalJson } from '../harness/canonical-json.js';
import { requireRow, type JournalContext } from './context.js';
import { stmt, writeTransaction } from './sqlite.js';

/** Settles a prepared row as committed (result retained for run rows) or ambiguous. */
export function settleEffect(ctx: JournalContext, req: SettleRequest): SettleResult {
  const result = writeTransaction(ctx.db, () => {
    const row = requireRow(ctx.db, req.effectId, 'settle_no_row');
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
