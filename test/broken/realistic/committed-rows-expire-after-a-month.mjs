// Housekeeping on open: a committed row older than thirty days is taken for finished history and deleted, whether or
// not its run reached a terminal; a run resumed after a long pause has lost the record its replay and its gate read.
// Below the nine days the retention scenario used to stop at (caught only when a generated trial jumped 400 days).
import { DAY, journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'committed-rows-expire-after-a-month', options, () => ({
    afterOpen(_j, ctx) {
      const cutoff = new Date(Date.now() - 30 * DAY).toISOString();
      ctx.db().prepare(`DELETE FROM run_effects WHERE state = 'committed' AND updated_at < ?`).run(cutoff);
    },
  }));
}
