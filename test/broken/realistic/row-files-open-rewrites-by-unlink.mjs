// row-files-journal with a format upgrade at open: every row's file is rewritten through a staged copy under a random
// name, and (the portable replace again) the old file is unlinked before the copy is renamed into its place. A kill
// between the unlink and the rename leaves no file at the row's name: a restart loses a committed row or the
// unresolved one, whose gate then passes (§10, §4). The staged copy's name differs at every open, so only the sweep's
// kills at the open's renames and unlinks reach that window, not its kills at writes to named files.
import { createBlind3Files } from './row-files-journal.mjs';

export function createJournal(context) {
  return createBlind3Files(context, { openRewritesByUnlink: true }, 'row-files-open-rewrites-by-unlink');
}
