// The terminal sweep selects the run's rows with LIKE (case-sensitive, "so ids are matched exactly"), never escaping
// the run id: a run whose id holds `_` or `%` sweeps the committed rows of every run its id matches as a pattern
// (`job_1` takes `jobX1`'s), and that run, still resumable, runs its effect again instead of replaying it (§9, §4).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'terminal-sweep-matches-like', options, (_j, ctx) => ({
    runTerminal(p) {
      const db = ctx.db();
      db.pragma('case_sensitive_like = ON');
      const deleted = db.transaction(() => {
        const info = db.prepare(`DELETE FROM run_effects WHERE scope_kind = 'run' AND run_id LIKE ? AND state = 'committed'`).run(p.runId);
        ctx.crashpoint('run-sweep.before-commit');
        return info.changes;
      }).immediate();
      db.pragma('wal_checkpoint(TRUNCATE)');
      return { deleted };
    },
  }));
}
