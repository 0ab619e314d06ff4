// Run ids reach the journal from URLs and the CLI, typed in any case, so the terminal sweep matches them
// case-insensitively ("RUN-7" and "run-7" are one run to an operator): the terminal of one run sweeps the committed
// rows of another, still resumable run whose id differs only in case, and that run's gate no longer sees them.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'run-ids-case-folded', options, (_j, ctx) => ({
    runTerminal(p) {
      const db = ctx.db();
      const deleted = db.transaction(() => {
        const info = db.prepare(`DELETE FROM run_effects WHERE scope_kind = 'run' AND run_id = ? COLLATE NOCASE AND state = 'committed'`).run(p.runId);
        ctx.crashpoint('run-sweep.before-commit');
        return info.changes;
      }).immediate();
      db.pragma('wal_checkpoint(TRUNCATE)');
      return { deleted };
    },
  }));
}
