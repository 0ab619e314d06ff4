// The terminal sweep "archives" a finished run's committed rows (results included) into a history table before deleting
// them, for later audit: the rows are gone from run_effects, the result bytes never leave the file (§9, §11).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'terminal-archives-rows', options, (j, ctx) => ({
    afterOpen() {
      ctx.db().exec('CREATE TABLE IF NOT EXISTS run_effects_archive AS SELECT * FROM run_effects WHERE 0');
    },
    runTerminal(p) {
      ctx.db().prepare(`INSERT INTO run_effects_archive SELECT * FROM run_effects WHERE scope_kind = 'run' AND run_id = ? AND state = 'committed'`).run(p.runId);
      return j.runTerminal(p);
    },
  }));
}
