// The terminal sweep deletes every *settled* row of the run: committed and ambiguous, since both were written by a
// settle ("the settle happened, so the row is done"). An ambiguous row is unresolved (§9: never swept), and the
// operator loses the only record that a payment may have left the process.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'terminal-sweeps-ambiguous', options, (_j, ctx) => ({
    runTerminal(p) {
      const db = ctx.db();
      const deleted = db.transaction(() => {
        const info = db.prepare(`DELETE FROM run_effects WHERE scope_kind = 'run' AND run_id = ? AND state IN ('committed', 'ambiguous') AND resolution IS NULL`).run(p.runId);
        ctx.crashpoint('run-sweep.before-commit');
        return info.changes;
      }).immediate();
      db.pragma('wal_checkpoint(TRUNCATE)');
      return { deleted };
    },
  }));
}
