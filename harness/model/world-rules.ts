// The "never" rules checked on evidence the journal does not control: the bytes of its files.
import type { HistoryEvent } from './history.js';
import type { MState } from './journal-state.js';
import type { Failure, OpEnv } from './outcome.js';

/**
 * A whole-file scan of the journal directory: an argument secret or a session result must never be there; a freed run
 * result or legacy session result must be gone once a checkpoint succeeded after it was freed (in every possible journal).
 */
export function checkScan(scan: Extract<HistoryEvent, { kind: 'scan' }>, worlds: readonly MState[], canaries: OpEnv['canaries']): Failure | null {
  for (const hit of scan.hits) {
    const canary = canaries.find((c) => c.id === hit.id);
    if (!canary) continue;
    const where = `canary #${hit.id} (${canary.role}) in ${hit.file}`;
    if (canary.role === 'arg') return { clause: 'secrets.args', what: where, expected: 'absent from every file of the journal', observed: `found in ${hit.file}` };
    if (canary.role === 'session-result') return { clause: 'session.no-result', what: where, expected: 'a session result is never written', observed: `found in ${hit.file}` };
    const gone = worlds.every((w) => w.freed.get(hit.id) === 'checkpointed');
    if (gone) {
      const clause = canary.role === 'legacy-result' ? 'secrets.legacy-clear' : 'secrets.erasure';
      return { clause, what: where, expected: 'freed, then a successful checkpoint: gone from main file and WAL', observed: `found in ${hit.file}` };
    }
  }
  return null;
}
