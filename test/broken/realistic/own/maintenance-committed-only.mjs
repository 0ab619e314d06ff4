// The author's open-time maintenance: "a legacy result is a committed row's result", so only committed rows are cleared.
import * as original from '../../../../dist/reference-impl/maintenance.js';
import { checkpointTruncate, stmt, writeTransaction } from '../../../../dist/reference-impl/sqlite.js';

export const { seedRows, listAllEffects } = original;

export function clearLegacySessionResults(db) {
  const cleared = writeTransaction(db, () => stmt(db, `UPDATE run_effects SET result_json = NULL WHERE scope_kind = 'session' AND state = 'committed' AND result_json IS NOT NULL`).run().changes);
  return { cleared, checkpoint: checkpointTruncate(db) };
}
