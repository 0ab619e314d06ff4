// sessionSweep (§9): delete exactly the captured committed rows, all chunks in one BEGIN IMMEDIATE.
import type { CapturedRow, SessionSweepRequest, SessionSweepResult } from '../shared/protocol/schemas.js';
import { JournalError } from '../harness/journal-interface.js';
import type { JournalContext } from './context.js';
import { parseEffectId } from './schema.js';
import { checkpointTruncate, stmt, writeTransaction } from './sqlite.js';

/** Sweeps captured rows; refuses an outer transaction; checkpoints after commit, even when empty. */
export function sweepSession(ctx: JournalContext, req: SessionSweepRequest): SessionSweepResult {
  if (req.insideOuterTransaction === true) return probeOuterTransaction(ctx, req);
  const deleted = sweepOwned(ctx, req);
  ctx.crashpoint('session-sweep.after-commit');
  return { deleted, checkpoint: checkpointTruncate(ctx.db) };
}

// The probe opens a plain BEGIN itself, so the real sweep path must notice it and refuse.
function probeOuterTransaction(ctx: JournalContext, req: SessionSweepRequest): SessionSweepResult {
  ctx.db.exec('BEGIN');
  try {
    sweepOwned(ctx, req);
  } finally {
    if (ctx.db.inTransaction) ctx.db.exec('ROLLBACK');
  }
  throw new JournalError('internal', 'the sweep ran inside an outer transaction instead of refusing');
}

function sweepOwned(ctx: JournalContext, req: SessionSweepRequest): number {
  if (ctx.db.inTransaction) {
    throw new JournalError('outer_transaction', 'sessionSweep refuses to run inside an outer transaction: it must own its commit');
  }
  const chunkSize = ctx.sweepChunkSize;
  // Rows of another session are never ours to delete, whatever the caller captured.
  const owned = req.captured.filter((row) => row.sessionId === req.sessionId);
  const chunks: CapturedRow[][] = [];
  for (let i = 0; i < owned.length; i += chunkSize) chunks.push(owned.slice(i, i + chunkSize));
  try {
    return writeTransaction(ctx.db, () => {
      const remove = stmt(
        ctx.db,
        `DELETE FROM run_effects WHERE id = ? AND scope_kind = 'session' AND session_id = ? AND turn = ?
           AND slot = ? AND tool_id = ? AND state = 'committed'`,
      );
      let deleted = 0;
      chunks.forEach((chunk, index) => {
        if (index > 0) ctx.crashpoint('session-sweep.between-chunks');
        for (const row of chunk) {
          const id = parseEffectId(row.effectId);
          if (id !== null) deleted += remove.run(id, row.sessionId, row.turn, row.slot, row.toolId).changes;
        }
        if (index === 0 && ctx.faults.has('sweep_fails_after_first_chunk')) {
          throw new JournalError('sweep_failed', 'injected fault: the sweep failed after its first chunk; nothing was committed');
        }
      });
      ctx.crashpoint('session-sweep.before-commit');
      return deleted;
    });
  } catch (error) {
    if (error instanceof JournalError) throw error;
    throw new JournalError('sweep_failed', `the session sweep failed and rolled back: ${String(error)}`, { cause: error });
  }
}
