// An operator's resolution re-files the row: the journal deletes it and inserts it back with the decision, the actor
// and the time (its attention list reads in insertion order), two statements, no transaction around them.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'resolve-by-delete-insert', options, (j, ctx) => ({
    resolve(p) {
      const db = ctx.db();
      const row = db.prepare('SELECT * FROM run_effects WHERE id = ?').get(Number(p.effectId));
      // Anything the reference refuses, it refuses.
      if (!row || row.resolution !== null || !['prepared', 'ambiguous', 'needs_attention'].includes(row.state)) return j.resolve(p);
      const at = new Date().toISOString();
      const next = { ...row, resolution: p.decision, resolution_actor: p.actor, resolution_at: at, updated_at: at };
      const cols = Object.keys(row);
      db.prepare('DELETE FROM run_effects WHERE id = ?').run(row.id);
      db.prepare(`INSERT INTO run_effects (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...cols.map((c) => next[c]));
      return j.listEffects({}).effects.find((e) => e.effectId === p.effectId);
    },
  }));
}
