// The author's checkpoint: "complete when every WAL frame was checkpointed" (log === checkpointed), ignoring busy. A reader
// whose snapshot covers the whole WAL lets every frame be copied yet keeps the WAL from being reset: its bytes stay.
import * as original from '../../../../dist/reference-impl/sqlite.js';

export const { openConnection, writeTransaction, readTransaction, stmt, isBusy, isUniqueViolation } = original;

export function checkpointTruncate(db) {
  const [row] = db.pragma('wal_checkpoint(TRUNCATE)');
  return row && row.log === row.checkpointed ? 'complete' : 'deferred';
}
