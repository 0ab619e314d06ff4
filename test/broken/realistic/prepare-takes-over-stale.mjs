// A prepare finding a row still unresolved after an hour (prepared, or moved to needs_attention by a gate) takes it
// over ("the process that wrote it must have died before dispatching; an hour-old prepare is a stale lock"): it
// deletes the row and prepares afresh. A process killed after the call and before its settle leaves exactly such a
// row, and the effect then runs a second time (§4: a duplicate identity is refused; §9: unresolved rows are never
// swept by age).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();
const STALE_MS = 60 * 60 * 1000;

export function createJournal(options) {
  return journal(createReferenceJournal, 'prepare-takes-over-stale', options, (j, ctx) => ({
    prepare(p) {
      const c = p.correlation;
      if (c.kind === 'run') {
        const cutoff = new Date(Date.now() - STALE_MS).toISOString();
        ctx.db().prepare(`DELETE FROM run_effects WHERE scope_kind = 'run' AND run_id = ? AND node_id = ? AND slot = ? AND tool_id = ? AND state IN ('prepared', 'needs_attention') AND resolution IS NULL AND created_at < ?`).run(c.runId, c.nodeId, p.slot, p.toolId, cutoff);
      }
      return j.prepare(p);
    },
  }));
}
