// sessionRead (§8): the disclosure join of a session's rows against its whole transcript history.
import type { CapturedRow, SessionReadRequest, SessionReadResult, TranscriptTurn } from '../shared/protocol/schemas.js';
import { JournalError } from '../harness/journal-interface.js';
import { LEGACY_CALL_IDS } from './constants.js';
import type { JournalContext } from './context.js';
import { isUnresolved, toEffectRow, type RowRecord } from './schema.js';
import { readTransaction, stmt } from './sqlite.js';

type Disclosure = SessionReadResult['disclosures'][number];

/** Reads a session's rows in one snapshot and decides what must be disclosed and what may be swept. */
export function readSession(ctx: JournalContext, req: SessionReadRequest): SessionReadResult {
  if (ctx.faults.has('session_read_fails')) {
    throw new JournalError('session_read_failed', `injected fault: reading session ${JSON.stringify(req.sessionId)} failed`);
  }
  // An outer transaction's uncommitted view cannot prove durable completion (§9).
  if (ctx.db.inTransaction) throw new JournalError('outer_transaction', 'sessionRead refuses to run inside an outer transaction');
  const rows = readTransaction(ctx.db, () =>
    stmt(ctx.db, `SELECT * FROM run_effects WHERE scope_kind = 'session' AND session_id = ? ORDER BY turn, slot, id`).all(
      req.sessionId,
    ) as RowRecord[],
  );
  const calls = indexCalls(req.transcript);
  const disclosures: Disclosure[] = [];
  const captured: CapturedRow[] = [];
  for (const row of rows) {
    const reason = disclosureFor(row, calls);
    if (reason) disclosures.push({ effectId: String(row.id), reason });
    if (row.state === 'committed') {
      captured.push({
        effectId: String(row.id),
        sessionId: row.session_id ?? req.sessionId,
        turn: row.turn ?? 0,
        slot: row.slot,
        toolId: row.tool_id,
        state: 'committed',
      });
    }
  }
  return { effects: rows.map(toEffectRow), disclosures, captured };
}

interface CallSighting {
  readonly toolName: string;
  readonly status: TranscriptTurn['status'];
}

// Keyed by call id over all history: compacted turns count, turn numbers do not.
function indexCalls(transcript: readonly TranscriptTurn[]): Map<string, CallSighting[]> {
  const calls = new Map<string, CallSighting[]>();
  for (const turn of transcript) {
    for (const call of turn.calls) {
      const seen = calls.get(call.callId) ?? [];
      seen.push({ toolName: call.toolName, status: turn.status });
      calls.set(call.callId, seen);
    }
  }
  return calls;
}

function disclosureFor(row: RowRecord, calls: ReadonlyMap<string, CallSighting[]>): Disclosure['reason'] | null {
  if (isUnresolved(row)) return 'unresolved';
  if (row.state !== 'committed' || row.slot < 0) return null;
  if (LEGACY_CALL_IDS.has(row.call_id)) return 'legacy';
  const seen = calls.get(row.call_id) ?? [];
  const only = seen[0];
  if (seen.length > 1 || (only && only.toolName !== row.tool_id)) return 'unattributable';
  if (only && only.status === 'completed') return null;
  return 'turn_incomplete';
}
