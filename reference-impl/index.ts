// Public entry of the reference journal.
import type { JournalFactoryOptions } from '../harness/journal-interface.js';
import type { TierMode } from '../shared/protocol/schemas.js';
import { ReferenceJournal } from './journal.js';

export { ReferenceJournal, type ReferenceJournalOptions } from './journal.js';
export { JOURNAL_NAME, JOURNAL_VERSION, CRASH_POINTS, DB_FILE_NAME } from './constants.js';
export { argsDigest, outputMappingDigest } from './digest.js';
export { redactArgs, redactValue, redactString } from './redact.js';
export { isJournaled, FIRST_PARTY_TOOLS, type ToolDef } from './journaling-predicate.js';

/** Creates an unopened reference journal; tierMode defaults to reconciling, faults to allowed. */
export function createReferenceJournal(
  options: JournalFactoryOptions & { tierMode?: TierMode; faultsAllowed?: boolean; sweepChunkSize?: number },
): ReferenceJournal {
  return new ReferenceJournal(options);
}
