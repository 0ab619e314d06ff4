// Housekeeping on open: an unresolved row untouched for an hour is taken for an attempt that never left the process,
// and is resolved as discarded by the journal itself; the node then runs again and repeats a real effect.
import { HOUR, journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'unresolved-discarded-after-an-hour', options, () => ({
    afterOpen(_j, ctx) {
      const now = Date.now();
      const cutoff = new Date(now - HOUR).toISOString();
      ctx
        .db()
        .prepare(
          `UPDATE run_effects SET resolution = 'discarded', resolution_actor = 'journal: expired', resolution_at = ?
             WHERE resolution IS NULL AND state IN ('prepared', 'ambiguous', 'needs_attention') AND updated_at < ?`,
        )
        .run(new Date(now).toISOString(), cutoff);
    },
  }));
}
