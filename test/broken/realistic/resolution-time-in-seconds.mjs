// An operator resolution stamped with a Unix time in seconds handed to a millisecond Date ("we store epoch seconds,
// like the rest of our audit log"): every resolution reads as a moment in January 1970. The decision and the actor are
// right and the timestamp parses, so the resolution looked recorded; it does not say when the operator acted (§8: "with
// the actor and a timestamp"), and an audit ordering resolutions by time gets them all wrong.
import { journal, referenceWith } from './journal-base.mjs';

export async function createJournal(options) {
  const createReferenceJournal = await referenceWith();
  return journal(createReferenceJournal, 'resolution-time-in-seconds', options, (j, ctx) => ({
    resolve(p) {
      const row = j.resolve(p);
      const at = new Date(Math.floor(Date.now() / 1000)).toISOString();
      ctx.db().prepare('UPDATE run_effects SET resolution_at = ? WHERE id = ?').run(at, Number(p.effectId));
      return { ...row, resolution: row.resolution === null ? null : { ...row.resolution, at } };
    },
  }));
}
