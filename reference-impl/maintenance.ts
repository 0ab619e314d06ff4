// Open-time maintenance, fixture seeding and the content-free listing.
import type { EffectRow, SeedRow } from '../shared/protocol/schemas.js';
import { scopeColumns, toEffectRow, type RowRecord } from './schema.js';
import { checkpointTruncate, stmt, writeTransaction, type CheckpointOutcome, type Db } from './sqlite.js';

/** Clears every legacy session result in one owned write, then checkpoints so freed bytes leave both files. */
export function clearLegacySessionResults(db: Db): { cleared: number; checkpoint: CheckpointOutcome } {
  const cleared = writeTransaction(
    db,
    () => stmt(db, `UPDATE run_effects SET result_json = NULL WHERE scope_kind = 'session' AND result_json IS NOT NULL`).run().changes,
  );
  return { cleared, checkpoint: checkpointTruncate(db) };
}

/** Plants rows exactly as an older writer would have left them (any digest, state, result), in one transaction. */
export function seedRows(db: Db, rows: readonly SeedRow[], now: string): string[] {
  return writeTransaction(db, () =>
    rows.map((row) => {
      const cols = scopeColumns(row.scope);
      const info = stmt(
        db,
        `INSERT INTO run_effects (scope_kind, run_id, node_id, session_id, turn, slot, tool_id, tier, state, args_digest,
           output_mapping_digest, result_json, node_attempt, provider_attempt, call_id, owner_id, generation, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, 0, ?, 'seed', 0, ?, ?)`,
      ).run(
        ...cols, row.slot, row.toolId, row.tier, row.state, row.argsDigest, row.resultJson,
        row.scope.kind === 'run' ? 1 : null, row.callId, now, now,
      );
      return String(info.lastInsertRowid);
    }),
  );
}

/** Every row, content-free, in id order. */
export function listAllEffects(db: Db): EffectRow[] {
  return (stmt(db, 'SELECT * FROM run_effects ORDER BY id').all() as RowRecord[]).map(toEffectRow);
}
