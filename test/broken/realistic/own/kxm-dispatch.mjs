// kxm.dispatch as the reference writes it, over the author's own lease tests (the fence is where the authors differ).
import { JournalError } from '../../../../dist/harness/journal-interface.js';
import { requireKxmRow, runRecord } from '../../../../dist/reference-impl/kxm/schema.js';
import { stmt, writeTransaction } from '../../../../dist/reference-impl/sqlite.js';

/** A kxmDispatch whose lease verdict comes from `leaseExpired(row, now)` and `leaseFenced(db, row)`. */
export function makeDispatch(leaseExpired, leaseFenced) {
  const refusal = (db, row, now) => (leaseExpired(row, now) ? 'lease_expired' : leaseFenced(db, row) ? 'lease_fenced' : null);
  return function kxmDispatch(ctx, p) {
    const { db } = ctx;
    const result = writeTransaction(db, () => {
      const row = requireKxmRow(db, p.effectId);
      if (row.state !== 'intent') throw new JournalError('kxm_invalid', `effect ${p.effectId} is ${row.state}, not an undispatched intent`);
      if (row.attempt_id !== p.attemptId) throw new JournalError('kxm_invalid', `effect ${p.effectId} plans attempt ${row.attempt_id}, not ${p.attemptId}`);
      const reason = runRecord(db, row.run_id).cancelRequested ? 'run_cancelled' : refusal(db, row, p.now);
      const state = reason === 'run_cancelled' ? 'cancelled' : reason === null ? 'dispatched' : 'not_started';
      stmt(db, 'UPDATE kxm_effects SET state = ? WHERE id = ?').run(state, row.id);
      return { effectId: p.effectId, started: reason === null, reason, state, idempotencyKey: row.idempotency_key };
    });
    ctx.crashpoint('kxm.dispatch.after-commit');
    return result;
  };
}
