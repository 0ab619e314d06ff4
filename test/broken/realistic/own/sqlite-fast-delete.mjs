// The author's connection setup: secure_delete = FAST ("zeroes deleted content without extra I/O"), which leaves freed
// overflow and freelist pages as they were.
import * as original from '../../../../dist/reference-impl/sqlite.js';

export const { writeTransaction, readTransaction, checkpointTruncate, stmt, isBusy, isUniqueViolation } = original;

export function openConnection(path) {
  const db = original.openConnection(path);
  db.pragma('secure_delete = FAST');
  return db;
}
