// row-files-journal with its author's portable replace: rename() over an existing file fails on Windows, so a row's
// file is unlinked before the staged copy is renamed into its place ("the staged copy is synced, so nothing is lost").
// A kill between the unlink and the rename leaves no file at the row's name: a settle, an operator's resolution, lose
// the prepared row itself, and the gate of the restarted engine passes a node whose effect may have landed (§10, §4).
import { createBlind3Files } from './row-files-journal.mjs';

export function createJournal(context) {
  return createBlind3Files(context, { replaceByUnlink: true }, 'row-files-replace-by-unlink');
}
