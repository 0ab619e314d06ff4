// A prepared row older than an hour is taken for a process that died before dispatching (dispatch follows within
// seconds), so the gate discards it and lets the node run again; after a long outage that repeats a real effect.
import { HOUR, journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'stale-prepare-abandoned', options, (j, ctx) => ({
    gate(p) {
      const now = Date.now();
      const rows = ctx.db().prepare(`SELECT id, created_at FROM run_effects WHERE scope_kind = 'run' AND run_id = ? AND node_id = ? AND state = 'prepared' AND resolution IS NULL`).all(p.scope.runId, p.scope.nodeId);
      for (const row of rows) {
        if (now - Date.parse(row.created_at) > HOUR) {
          ctx.db().prepare(`UPDATE run_effects SET resolution = 'discarded', resolution_actor = 'journal: stale prepare', resolution_at = ? WHERE id = ?`).run(new Date(now).toISOString(), row.id);
        }
      }
      return j.gate(p);
    },
  }));
}
