// Housekeeping on open: an unresolved row untouched for ninety days is taken for an attempt nobody will ever resolve,
// and is resolved as discarded by the journal itself; the node then runs again and repeats a real effect (§9: never
// swept by age). Past every fixed restart but the 400-day and ten-year ones.
import { DAY, discardsUnresolvedOnOpen, journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'unresolved-discarded-after-a-quarter', options, discardsUnresolvedOnOpen(90 * DAY));
}
