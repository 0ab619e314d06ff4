// The from-scratch file journal, its author reading an effect id as "the file of this identity" (the generation after
// the dot is decoration): after an operator discards a row and the node runs again, the old worker's late settle of
// the id it was given lands on the replacement row, which commits with the old call's answer.
import { createFilesJournal } from './core-files-journal.mjs';

export function createJournal(options) {
  return createFilesJournal(options, { settleAnyGeneration: true }, 'core-files-settle-any-generation');
}
