// The from-scratch file journal, its author replacing a row by overwriting its file where it is: open with 'w'
// (truncate), write, fsync. Every fsync the journal makes comes after a write that already holds the whole row, so a
// kill at any durable syscall leaves the row intact; a kill between the truncation and the write(2) leaves an empty
// file, and the settled effect (with everything the journal held about it) is gone.
import { createFilesJournal } from './core-files-journal.mjs';

export function createJournal(options) {
  return createFilesJournal(options, { rewriteInPlace: true }, 'core-files-rewrite-in-place');
}
