// An accepted resolution is applied as what it means (the row becomes committed), then recorded (decision, actor, time)
// in a second statement: a crash between leaves a committed row no one committed and no operator resolved.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'resolve-accept-commits-first', options, (j, ctx) => ({
    resolve(p) {
      const db = ctx.db();
      const id = Number(p.effectId);
      const row = db.prepare('SELECT state, resolution FROM run_effects WHERE id = ?').get(id);
      // Anything the reference refuses, it refuses.
      if (p.decision !== 'accepted' || !row || row.resolution !== null || !['prepared', 'ambiguous', 'needs_attention'].includes(row.state)) return j.resolve(p);
      db.prepare(`UPDATE run_effects SET state = 'committed' WHERE id = ?`).run(id);
      const at = new Date().toISOString();
      db.prepare(`UPDATE run_effects SET resolution = 'accepted', resolution_actor = ?, resolution_at = ?, updated_at = ? WHERE id = ?`).run(p.actor, at, at, id);
      return j.listEffects({}).effects.find((e) => e.effectId === p.effectId);
    },
  }));
}
