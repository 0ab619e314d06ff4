// Housekeeping on open: an unresolved row untouched for an hour is taken for an attempt that never left the process,
// and is resolved as discarded by the journal itself; the node then runs again and repeats a real effect.
import { HOUR, discardsUnresolvedOnOpen, journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'unresolved-discarded-after-an-hour', options, discardsUnresolvedOnOpen(HOUR));
}
