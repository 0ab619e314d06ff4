// row-files-journal with the session sweep its author wrote first: unlink each captured row's file, then sync the
// directory once ("one fsync for the batch"). Each unlink is its own commit: a kill between two of them leaves some
// captured rows deleted and others not, where §9 says all chunks of a sweep commit together.
import { createBlind3Files } from './row-files-journal.mjs';

export function createJournal(context) {
  return createBlind3Files(context, { sweepFileByFile: true }, 'row-files-sweep-file-by-file');
}
