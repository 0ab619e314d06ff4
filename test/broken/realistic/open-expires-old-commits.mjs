// Housekeeping on open: committed effects older than a week are history, not evidence, and are deleted; a run resumed
// after a long outage has lost the record its replay needs.
import { DAY, expiresCommittedOnOpen, journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'open-expires-old-commits', options, expiresCommittedOnOpen(7 * DAY));
}
