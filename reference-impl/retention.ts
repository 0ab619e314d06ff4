// Run retention (§9) and explicit WAL checkpoints (§11).
import type { OpResult } from '../shared/protocol/schemas.js';
import type { JournalContext } from './context.js';
import { checkpointTruncate, stmt, writeTransaction } from './sqlite.js';

/** A terminal run can no longer be resumed: its committed rows go, unresolved rows never do. */
export function sweepTerminalRun(ctx: JournalContext, runId: string): { deleted: number } {
  const deleted = writeTransaction(ctx.db, () => {
    const info = stmt(ctx.db, `DELETE FROM run_effects WHERE scope_kind = 'run' AND run_id = ? AND state = 'committed'`).run(runId);
    ctx.crashpoint('run-sweep.before-commit');
    return info.changes;
  });
  checkpointTruncate(ctx.db);
  return { deleted };
}

/** The checkpoint operation: complete, or deferred while a reader pins the WAL. */
export function checkpointNow(ctx: JournalContext): OpResult<'checkpoint'> {
  ctx.crashpoint('checkpoint.before');
  return { checkpoint: checkpointTruncate(ctx.db) };
}
