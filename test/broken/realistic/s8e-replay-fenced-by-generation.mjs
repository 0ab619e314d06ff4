// The journal fences its owners itself (ADR-0079's idea, applied to replay): each open takes the next owner generation,
// a row belongs to the generation that prepared or reconciled it, and a replay is served only from the current owner's
// rows. An older owner's committed tier-1 row is re-executed under its stored key instead ("the target deduplicates, so
// that is safe"): every restart turns the batch's replays into dispatches (s8e §Exactly-once qualification: "restart
// replay reuses that record"; effect-journal §4: committed, result retained → re-deliver, do not re-execute).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  let generation = 0;
  const own = (ctx, id) => ctx.db().prepare('INSERT INTO row_owner (row_id, gen) VALUES (?, ?) ON CONFLICT (row_id) DO UPDATE SET gen = excluded.gen').run(id, generation);
  return journal(createReferenceJournal, 's8e-replay-fenced-by-generation', options, (j, ctx) => ({
    afterOpen() {
      const db = ctx.db();
      db.exec('CREATE TABLE IF NOT EXISTS journal_owner (gen INTEGER PRIMARY KEY); CREATE TABLE IF NOT EXISTS row_owner (row_id INTEGER PRIMARY KEY, gen INTEGER NOT NULL)');
      generation = db.prepare('SELECT coalesce(max(gen), 0) + 1 AS next FROM journal_owner').get().next;
      db.prepare('INSERT INTO journal_owner (gen) VALUES (?)').run(generation);
    },
    prepare(p) {
      const v = j.prepare(p);
      if (v.verdict === 'proceed') own(ctx, Number(v.effectId));
      if (v.verdict !== 'replay') return v;
      const row = ctx.db().prepare('SELECT e.id, e.tier, e.idempotency_key, o.gen FROM run_effects e LEFT JOIN row_owner o ON o.row_id = e.id WHERE e.id = ?').get(Number(v.effectId));
      if (!row || row.tier !== 1 || row.gen === generation || row.idempotency_key === null) return v;
      ctx.db().prepare(`UPDATE run_effects SET state = 'prepared', result_json = NULL, updated_at = ? WHERE id = ?`).run(new Date().toISOString(), row.id);
      own(ctx, row.id);
      return { verdict: 'proceed', effectId: v.effectId, idempotencyKey: row.idempotency_key };
    },
    reconcile(p) {
      const r = j.reconcile(p);
      own(ctx, Number(p.effectId));
      return r;
    },
  }));
}
