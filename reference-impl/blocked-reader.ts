// The checkpoint_blocked_by_reader fault: a second connection holding an open read transaction.
import { openConnection, type Db } from './sqlite.js';

/** A reader pinning a WAL snapshot so wal_checkpoint(TRUNCATE) must report busy. */
export class BlockedReader {
  private readonly db: Db;

  constructor(path: string) {
    this.db = openConnection(path);
    try {
      this.db.exec('BEGIN');
      // The snapshot is taken by the first read, not by BEGIN.
      this.db.prepare('SELECT count(*) AS n FROM run_effects').get();
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  /** Ends the read transaction and closes the connection. */
  release(): void {
    try {
      if (this.db.inTransaction) this.db.exec('COMMIT');
    } finally {
      this.db.close();
    }
  }
}
