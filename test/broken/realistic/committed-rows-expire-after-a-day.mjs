// Housekeeping on open: a committed row older than a day is taken for finished history and deleted, whether or not its
// run reached a terminal; a run resumed the next day has lost the record its replay and its gate read.
import { DAY, expiresCommittedOnOpen, journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'committed-rows-expire-after-a-day', options, expiresCommittedOnOpen(DAY));
}
