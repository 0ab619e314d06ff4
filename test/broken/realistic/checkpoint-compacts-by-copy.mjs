// Checkpoint maintenance that compacts run_effects by hand (the contract performs no VACUUM, §11): it copies every row
// to a scratch table, empties run_effects and copies them back, each statement its own commit. A kill after the delete
// loses every row, unresolved ones included, which §9 says are "never swept by age. They are the record an operator needs".
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'checkpoint-compacts-by-copy', options, (j, ctx) => ({
    checkpoint() {
      ctx.crashpoint('checkpoint.before');
      const db = ctx.db();
      db.exec('CREATE TABLE IF NOT EXISTS run_effects_compact AS SELECT * FROM run_effects WHERE 0');
      db.prepare('DELETE FROM run_effects_compact').run();
      db.prepare('INSERT INTO run_effects_compact SELECT * FROM run_effects ORDER BY id').run();
      db.prepare('DELETE FROM run_effects').run();
      db.prepare('INSERT INTO run_effects SELECT * FROM run_effects_compact ORDER BY id').run();
      db.exec('DROP TABLE run_effects_compact');
      // Then the fold the reference does, with its short busy wait: a reader defers it.
      db.pragma('busy_timeout = 100');
      try {
        const [fold] = db.pragma('wal_checkpoint(TRUNCATE)');
        return { checkpoint: fold?.busy === 0 ? 'complete' : 'deferred' };
      } finally {
        db.pragma('busy_timeout = 5000');
      }
    },
  }));
}
