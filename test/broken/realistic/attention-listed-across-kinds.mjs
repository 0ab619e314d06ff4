// The author lists what needs attention under an id with one query for both kinds (the operator's "what is pending for
// X" view) and the session read takes its unresolved disclosures from it: a run with the session's id, its unresolved
// rows read as the session's, is disclosed on the session's resume. Captured rows, gates and sweeps keep kinds apart.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'attention-listed-across-kinds', options, (j, ctx) => ({
    sessionRead(p) {
      const read = j.sessionRead(p);
      const pending = ctx.db()
        .prepare(`SELECT id FROM run_effects WHERE coalesce(session_id, run_id) = ? AND state <> 'committed' AND resolution IS NULL ORDER BY id`)
        .all(p.sessionId);
      const listed = new Set(read.disclosures.map((d) => d.effectId));
      return { ...read, disclosures: [...read.disclosures, ...pending.filter((r) => !listed.has(String(r.id))).map((r) => ({ effectId: String(r.id), reason: 'unresolved' }))] };
    },
  }));
}
