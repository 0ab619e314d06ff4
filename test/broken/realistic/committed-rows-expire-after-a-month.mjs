// Housekeeping on open: a committed row older than thirty days is taken for finished history and deleted, whether or
// not its run reached a terminal; a run resumed after a long pause has lost the record its replay and its gate read.
// Below the nine days the retention scenario used to stop at (caught only when a generated trial jumped 400 days).
import { DAY, expiresCommittedOnOpen, journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'committed-rows-expire-after-a-month', options, expiresCommittedOnOpen(30 * DAY));
}
