// The run_effects table: DDL, the raw row type and its content-free EffectRow view.
import type { EffectRow, EffectScope, EffectState, Tier } from '../shared/protocol/schemas.js';
import type { Db } from './sqlite.js';

// No AUTOINCREMENT: a deleted id may be handed out again, which the session sweep must tolerate.
// The identity index maps NULL scope columns to values no real id can take ('' and -1), because
// SQLite treats NULLs as distinct inside UNIQUE and the run/session halves are each half NULL.
const DDL = `
CREATE TABLE IF NOT EXISTS run_effects (
  id INTEGER PRIMARY KEY,
  scope_kind TEXT NOT NULL CHECK (scope_kind IN ('run', 'session')),
  run_id TEXT,
  node_id TEXT,
  session_id TEXT,
  turn INTEGER,
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
  resolution_actor TEXT,
  resolution_at TEXT,
  ambiguous_reason TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK ((scope_kind = 'run' AND run_id IS NOT NULL AND node_id IS NOT NULL AND session_id IS NULL AND turn IS NULL)
      OR (scope_kind = 'session' AND session_id IS NOT NULL AND turn IS NOT NULL AND run_id IS NULL AND node_id IS NULL))
);
CREATE UNIQUE INDEX IF NOT EXISTS run_effects_identity ON run_effects (
  scope_kind, coalesce(run_id, ''), coalesce(node_id, ''), coalesce(session_id, ''), coalesce(turn, -1), slot, tool_id
);
CREATE INDEX IF NOT EXISTS run_effects_run ON run_effects (run_id, node_id);
CREATE INDEX IF NOT EXISTS run_effects_session ON run_effects (session_id, turn);
`;

/** Creates the table and its indexes when missing. */
export function createSchema(db: Db): void {
  db.exec(DDL);
}

/** One run_effects row exactly as SQLite returns it. */
export interface RowRecord {
  id: number;
  scope_kind: 'run' | 'session';
  run_id: string | null;
  node_id: string | null;
  session_id: string | null;
  turn: number | null;
  slot: number;
  tool_id: string;
  tier: Tier;
  state: EffectState;
  args_digest: string;
  output_mapping_digest: string | null;
  idempotency_key: string | null;
  result_json: string | null;
  node_attempt: number | null;
  provider_attempt: number;
  call_id: string;
  owner_id: string;
  generation: number;
  resolution: 'accepted' | 'discarded' | null;
  resolution_actor: string | null;
  resolution_at: string | null;
}

/** The scope columns of a row, NULL for the half that does not apply. */
export function scopeColumns(scope: EffectScope): [string, string | null, string | null, string | null, number | null] {
  return scope.kind === 'run'
    ? ['run', scope.runId, scope.nodeId, null, null]
    : ['session', null, null, scope.sessionId, scope.turn];
}

/** The content-free view of a row: no arguments, no result, only whether one is retained. */
export function toEffectRow(row: RowRecord): EffectRow {
  return {
    effectId: String(row.id),
    scope: rowScope(row),
    slot: row.slot,
    toolId: row.tool_id,
    tier: row.tier,
    state: row.state,
    argsDigest: row.args_digest,
    idempotencyKey: row.idempotency_key,
    resultRetained: row.result_json !== null,
    resolution:
      row.resolution === null
        ? null
        : { decision: row.resolution, actor: row.resolution_actor ?? '', at: row.resolution_at ?? '' },
    attempt: {
      nodeAttempt: row.node_attempt,
      providerAttempt: row.provider_attempt,
      callId: row.call_id,
      ownerId: row.owner_id,
      generation: row.generation,
    },
  };
}

/** The identity scope a row was written under. */
export function rowScope(row: RowRecord): EffectScope {
  return row.scope_kind === 'run'
    ? { kind: 'run', runId: row.run_id ?? '', nodeId: row.node_id ?? '' }
    : { kind: 'session', sessionId: row.session_id ?? '', turn: row.turn ?? 0 };
}

/** Unresolved = not committed and no operator resolution yet. */
export function isUnresolved(row: RowRecord): boolean {
  return row.state !== 'committed' && row.resolution === null;
}

/** Parses a wire effect id; anything that is not a canonical positive integer matches no row. */
export function parseEffectId(effectId: string): number | null {
  if (!/^[1-9][0-9]{0,15}$/.test(effectId)) return null;
  const id = Number(effectId);
  return Number.isSafeInteger(id) ? id : null;
}
