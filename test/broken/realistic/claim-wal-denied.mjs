// The checkpoint outcome is read from the frame counts (log === checkpointed) instead of busy: with a reader pinned at
// the WAL's end it says complete while the WAL still holds the freed bytes (§11: complete means erased). Its hello says
// sqliteWal: false ("WAL is an implementation detail"), so the blocked-reader checkpoint scenarios did not apply, while
// its files are SQLite in WAL mode.
import { claimJournal } from './claim-base.mjs';

export function createJournal(options) {
  return claimJournal('claim-wal-denied', options, (caps) => ({ ...caps, sqliteWal: false }), () => ({}), { 'reference-impl/sqlite.js': new URL('./own/checkpoint-frame-count.mjs', import.meta.url).href });
}
