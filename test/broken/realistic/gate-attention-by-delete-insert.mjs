// The gate moves an unresolved tier-3 row to needs_attention by filing it again: it deletes the row and inserts it back
// with its new state (the attention list reads in insertion order), two statements, no transaction around them.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'gate-attention-by-delete-insert', options, (j, ctx) => ({
    gate(p) {
      const db = ctx.db();
      const rows = db
        .prepare(`SELECT * FROM run_effects WHERE scope_kind = 'run' AND run_id = ? AND node_id = ? AND tier = 3 AND resolution IS NULL AND state IN ('prepared', 'ambiguous') ORDER BY id`)
        .all(p.scope.runId, p.scope.nodeId);
      for (const row of rows) {
        const cols = Object.keys(row);
        db.prepare('DELETE FROM run_effects WHERE id = ?').run(row.id);
        db.prepare(`INSERT INTO run_effects (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...cols.map((c) => (c === 'state' ? 'needs_attention' : row[c])));
      }
      return j.gate(p);
    },
  }));
}
