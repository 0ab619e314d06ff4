// The terminal sweep deletes in chunks of 500 rows "to keep the write lock short", but only the first chunk runs:
// a run with more committed rows than that keeps the rest after its terminal, with no later sweep to take them.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();
const CHUNK = 500;

export function createJournal(options) {
  return journal(createReferenceJournal, 'terminal-sweep-one-chunk', options, (j, ctx) => ({
    runTerminal(p) {
      const db = ctx.db();
      const deleted = db.transaction(() => {
        const n = db.prepare(`DELETE FROM run_effects WHERE id IN (SELECT id FROM run_effects WHERE scope_kind = 'run' AND run_id = ? AND state = 'committed' ORDER BY id LIMIT ?)`).run(p.runId, CHUNK).changes;
        ctx.crashpoint('run-sweep.before-commit');
        return n;
      }).immediate();
      j.checkpoint();
      return { deleted };
    },
  }));
}
