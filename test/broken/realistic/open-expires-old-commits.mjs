// Housekeeping on open: committed effects older than a week are history, not evidence, and are deleted; a run resumed
// after a long outage has lost the record its replay needs.
import { DAY, journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'open-expires-old-commits', options, () => ({
    afterOpen(_j, ctx) {
      const cutoff = new Date(Date.now() - 7 * DAY).toISOString();
      ctx.db().prepare(`DELETE FROM run_effects WHERE state = 'committed' AND updated_at < ?`).run(cutoff);
    },
  }));
}
