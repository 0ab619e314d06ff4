// The journal's checkpoint runs `wal_checkpoint(TRUNCATE)` in the store's wrapper and only then calls the function that
// announces checkpoint.before ("the hook lives where the checkpoint is built"): the point is reached after the
// checkpoint it names has copied the WAL into the main file and truncated it, so a kill planned before the checkpoint
// lands after it, and the recovery a deferred or interrupted checkpoint needs is never exercised there.
import { journal, referenceWith } from './journal-base.mjs';

export async function createJournal(options) {
  const createReferenceJournal = await referenceWith();
  return journal(createReferenceJournal, 'checkpoint-point-after-truncate', options, (j, ctx) => ({
    checkpoint(p) {
      ctx.db().pragma('wal_checkpoint(TRUNCATE)');
      return j.checkpoint(p);
    },
  }));
}
