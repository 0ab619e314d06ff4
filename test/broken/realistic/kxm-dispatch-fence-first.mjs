// A KXM dispatch that guards "one start per planned attempt" with a fence row (primary key effect and attempt), claimed
// in one autocommit statement before a second marks the effect dispatched. A kill between leaves an intent whose fence is
// taken: every later dispatch of it is refused, though the contract's crash matrix says an "Intent recorded; process
// provably never started" must "Start same planned attempt" and "Crashing before step 6 is safe to restart".
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'kxm-dispatch-fence-first', options, (j, ctx) => ({
    afterOpen() {
      ctx.db().exec('CREATE TABLE IF NOT EXISTS kxm_dispatch_fence (effect_id INTEGER NOT NULL, attempt_id TEXT NOT NULL, PRIMARY KEY (effect_id, attempt_id))');
    },
    'kxm.dispatch'(p) {
      const db = ctx.db();
      const row = db.prepare('SELECT * FROM kxm_effects WHERE id = ?').get(Number(p.effectId));
      const run = row ? db.prepare('SELECT cancel_requested FROM kxm_runs WHERE run_id = ?').get(row.run_id) : undefined;
      const expired = row?.lease_expires_at != null && p.now >= row.lease_expires_at;
      const top = row?.lease_id != null ? db.prepare('SELECT max(fencing_token) AS top FROM kxm_effects WHERE lease_id = ?').get(row.lease_id).top : null;
      const fenced = top !== null && row.fencing_token !== null && top > row.fencing_token;
      // Every refusal (unknown, not an intent, another attempt, a cancelled run, a lost lease) is the reference's.
      if (!row || row.state !== 'intent' || row.attempt_id !== p.attemptId || run?.cancel_requested === 1 || expired || fenced) return j['kxm.dispatch'](p);
      const claimed = db.prepare('INSERT OR IGNORE INTO kxm_dispatch_fence (effect_id, attempt_id) VALUES (?, ?)').run(row.id, row.attempt_id).changes === 1;
      // A taken fence means another holder already started this attempt: this one must not.
      if (!claimed) return { effectId: p.effectId, started: false, reason: 'lease_fenced', state: row.state, idempotencyKey: row.idempotency_key };
      db.prepare("UPDATE kxm_effects SET state = 'dispatched' WHERE id = ?").run(row.id);
      ctx.crashpoint('kxm.dispatch.after-commit');
      return { effectId: p.effectId, started: true, reason: null, state: 'dispatched', idempotencyKey: row.idempotency_key };
    },
  }));
}
