// The from-scratch file journal, its author reading ADR-0040's node retry as a new occurrence: the node attempt is part
// of the file name that claims an identity. A budget approval or a crash-resume resets the attempt to 1 (§4, §13), so
// the re-run's prepare of an effect the attempt-2 execution committed finds no file and proceeds: the effect runs twice.
import { createFilesJournal } from './core-files-journal.mjs';

export function createJournal(options) {
  return createFilesJournal(options, { attemptInIdentity: true }, 'core-files-attempt-in-identity');
}
