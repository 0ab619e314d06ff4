// The author's schema: the identity index is a plain lookup index, because rows an older writer left at one identity
// (before discards replaced rows) made CREATE UNIQUE INDEX fail on upgraded files; prepare enforces uniqueness itself.
import * as original from '../../../../dist/reference-impl/schema.js';

export const { scopeColumns, toEffectRow, rowScope, isUnresolved, parseEffectId } = original;

export function createSchema(db) {
  db.exec(`
CREATE TABLE IF NOT EXISTS run_effects (
  id INTEGER PRIMARY KEY,
  scope_kind TEXT NOT NULL CHECK (scope_kind IN ('run', 'session')),
  run_id TEXT, node_id TEXT, session_id TEXT, turn INTEGER,
  slot INTEGER NOT NULL,
  tool_id TEXT NOT NULL,
  tier INTEGER NOT NULL CHECK (tier IN (1, 2, 3)),
  state TEXT NOT NULL CHECK (state IN ('prepared', 'committed', 'ambiguous', 'needs_attention')),
  args_digest TEXT NOT NULL,
  output_mapping_digest TEXT,
  idempotency_key TEXT,
  result_json TEXT,
  node_attempt INTEGER,
  provider_attempt INTEGER NOT NULL,
  call_id TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  generation INTEGER NOT NULL,
  resolution TEXT CHECK (resolution IN ('accepted', 'discarded')),
  resolution_actor TEXT, resolution_at TEXT, ambiguous_reason TEXT,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
  CHECK ((scope_kind = 'run' AND run_id IS NOT NULL AND node_id IS NOT NULL AND session_id IS NULL AND turn IS NULL)
      OR (scope_kind = 'session' AND session_id IS NOT NULL AND turn IS NOT NULL AND run_id IS NULL AND node_id IS NULL))
);
CREATE INDEX IF NOT EXISTS run_effects_identity ON run_effects (
  scope_kind, coalesce(run_id, ''), coalesce(node_id, ''), coalesce(session_id, ''), coalesce(turn, -1), slot, tool_id
);
CREATE INDEX IF NOT EXISTS run_effects_run ON run_effects (run_id, node_id);
CREATE INDEX IF NOT EXISTS run_effects_session ON run_effects (session_id, turn);
`);
}
