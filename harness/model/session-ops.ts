// The model of the session read and sweep (§8, §9): what a read must disclose and capture, what a sweep may delete.
import type { CapturedRow, Disclosure, SessionReadRequest, SessionReadResult, SessionSweepRequest, SessionSweepResult } from '../../shared/protocol/schemas.js';
import { allowedDisclosures, primaryReason } from './disclosure.js';
import type { OpAnswer } from './history.js';
import { checkpointed, sessionRows, withRow, withoutRows, type MRow, type MState } from './journal-state.js';
import { fail, ok, type OpEnv, type Outcome } from './outcome.js';
import { describe, rowLabel } from './run-ops.js';

/** A disclosure read: the session's rows, the disclosures the join allows, and exactly its committed rows captured. */
export function readAnswered(state: MState, p: SessionReadRequest, answer: OpAnswer, env: OpEnv): Outcome {
  const where = `session read of ${JSON.stringify(p.sessionId)}`;
  if (answer.kind === 'error') {
    if (answer.code === 'session_read_failed' && env.faults.has('session_read_fails')) return ok(state, 'disclosure');
    if (answer.code === 'outer_transaction') return ok(state);
    return fail('disclosure', where, 'the read succeeds', describe(answer));
  }
  if (answer.kind !== 'result') return ok(state);
  const r = answer.result as SessionReadResult;
  const rows = sessionRows(state, p.sessionId);
  const byId = new Map<string, MRow>();
  const left = new Set(rows);
  let next = state;
  for (const e of r.effects) {
    if (e.scope.kind !== 'session' || e.scope.sessionId !== p.sessionId) return fail('listing', `${where}: row ${e.effectId}`, 'rows of this session only', e.scope);
    const row = rows.find((x) => left.has(x) && (x.id === e.effectId || (x.id === null && x.scope.kind === 'session' && e.scope.kind === 'session' && x.scope.turn === e.scope.turn && x.slot === e.slot && x.toolId === e.toolId)));
    if (!row) return fail('listing', `${where}: row ${e.effectId} (turn ${e.scope.turn} slot ${e.slot} ${e.toolId})`, rows.map(rowLabel), 'a row the model does not know');
    // Only a legacy writer's result may still be there, until the next open clears it.
    if (e.resultRetained && row.legacyResult !== true) return fail('session.no-result', `${where}: ${rowLabel(row)}`, 'no result retained', 'result retained');
    left.delete(row);
    byId.set(e.effectId, row);
    if (row.id === null) next = withRow(next, { ...row, id: e.effectId });
  }
  if (left.size > 0) return fail(missingClause([...left][0]!), `${where}: rows the read must see`, rows.map(rowLabel), `missing ${[...left].map(rowLabel).join('; ')}`);
  const disclosed = new Map<string, string>();
  for (const d of r.disclosures) {
    const id = disclosedId(d, r.effects, p.sessionId, disclosed);
    const named = d.effectId ?? `turn ${d.scope?.turn ?? '?'} slot ${d.slot ?? '?'} ${d.toolId ?? '?'}`;
    const row = id === null ? undefined : byId.get(id);
    if (id === null || !row) return fail('disclosure', `${where}: disclosure of ${named}`, 'a row of this session, its id and address agreeing', 'no such row');
    if (disclosed.has(id)) return fail('disclosure', `${where}: ${rowLabel(row)} disclosed twice in one read`, 'once', 'twice');
    disclosed.set(id, d.reason);
  }
  for (const [id, row] of byId) {
    // An operator-resolved row: §8 requires its disclosure only "until resolved", while §9 still counts its state as
    // unresolved, so silence and any reason are both readings of the contract (recovery.session-resolution).
    if (row.state !== 'committed' && row.resolution !== null) continue;
    const allowed = allowedDisclosures(view(row), p.transcript);
    const reason = disclosed.get(id) ?? null;
    const expected = allowed.length === 0 ? 'silent' : primaryReason(view(row), p.transcript) ?? allowed[0];
    if (reason === null ? allowed.length > 0 : !allowed.includes(reason as (typeof allowed)[number])) {
      return fail('disclosure', `${where}: ${rowLabel(row)}`, allowed.length === 0 ? 'silent' : `disclosed (${allowed.includes(expected as never) ? expected : allowed.join(' | ')})`, reason ?? 'silent');
    }
  }
  const label = ([id, row]: [string, MRow]): string => capturedLabel({ effectId: id, ...addrOf(row, p.sessionId) });
  const wantCaptured = [...byId].filter(([, row]) => row.state === 'committed').map(label);
  // An accepted row is "treated as committed" (§8): a journal that records it so may capture it with the committed ones.
  const mayCapture = new Set([...wantCaptured, ...[...byId].filter(([, row]) => row.state !== 'committed' && row.resolution === 'accepted').map(label)]);
  const gotCaptured = r.captured.map(capturedLabel);
  if (!wantCaptured.every((c) => gotCaptured.includes(c)) || !gotCaptured.every((c) => mayCapture.has(c)) || new Set(gotCaptured).size !== gotCaptured.length) {
    return fail('retention.captured', `${where}: captured rows`, wantCaptured.sort(), gotCaptured.sort());
  }
  return ok(next, 'disclosure', 'retention.captured', 'session.no-result');
}

/** A session sweep: exactly the captured rows still committed at their address (in this session) go, all or none. */
export function sweepTargets(state: MState, p: SessionSweepRequest): MRow[] {
  const wanted = new Set(p.captured.filter((c) => c.sessionId === p.sessionId).map(capturedLabel));
  // An accepted row the read captured (a journal that records it as committed) goes with them.
  return sessionRows(state, p.sessionId).filter((row) => (row.state === 'committed' || row.resolution === 'accepted') && row.id !== null && wanted.has(capturedLabel({ effectId: row.id, ...addrOf(row, p.sessionId) })));
}

export function sweepAnswered(state: MState, p: SessionSweepRequest, answer: OpAnswer, env: OpEnv): Outcome {
  const where = `session sweep of ${JSON.stringify(p.sessionId)} (${p.captured.length} captured)`;
  if (p.insideOuterTransaction) {
    return answer.kind === 'error' && answer.code === 'outer_transaction' ? ok(state, 'retention.outer-transaction') : fail('retention.outer-transaction', `${where} inside an outer transaction`, 'error outer_transaction, nothing deleted', describe(answer));
  }
  const targets = sweepTargets(state, p);
  if (answer.kind === 'error') {
    if (answer.code === 'sweep_failed' && env.faults.has('sweep_fails_after_first_chunk')) return ok(state, 'retention.session-sweep');
    return fail('retention.session-sweep', where, `${targets.length} row(s) deleted`, describe(answer));
  }
  if (answer.kind !== 'result') return ok(state);
  const r = answer.result as SessionSweepResult;
  if (r.deleted !== targets.length) return fail('retention.session-sweep', `${where}: rows deleted`, { deleted: targets.length, rows: targets.map(rowLabel) }, r.deleted);
  const next = withoutRows(state, targets.map((t) => t.addr));
  return ok(r.checkpoint === 'complete' ? checkpointed(next) : next, 'retention.session-sweep');
}

export function sweepApplied(state: MState, p: SessionSweepRequest): MState[] {
  if (p.insideOuterTransaction) return [state];
  return [withoutRows(state, sweepTargets(state, p).map((t) => t.addr))];
}

function view(row: MRow) {
  return { state: row.state, slot: row.slot, toolId: row.toolId, callId: row.callId };
}

function addrOf(row: MRow, sessionId: string): Omit<CapturedRow, 'effectId'> {
  return { sessionId, turn: row.scope.kind === 'session' ? row.scope.turn : -1, slot: row.slot, toolId: row.toolId, state: 'committed' };
}

function capturedLabel(c: CapturedRow): string {
  return JSON.stringify([c.effectId, c.sessionId, c.turn, c.slot, c.toolId, c.state]);
}


/** Which retention clause a missing row breaks. */
export function missingClause(row: MRow): 'retention.unresolved' | 'retention.resumable' | 'retention.session-sweep' {
  if (row.state !== 'committed') return 'retention.unresolved';
  return row.scope.kind === 'run' ? 'retention.resumable' : 'retention.session-sweep';
}

/** The row id a disclosure names: by id, or by address and state as this read listed them (the protocol allows either); null when they disagree or name nothing read. */
function disclosedId(d: Disclosure, effects: SessionReadResult['effects'], sessionId: string, taken: ReadonlyMap<string, unknown>): string | null {
  if (d.scope === undefined || d.slot === undefined || d.toolId === undefined) return d.effectId ?? null;
  const scope = d.scope;
  const hits = effects.filter(
    (e) =>
      (d.effectId === undefined || d.effectId === e.effectId) && scope.sessionId === sessionId && e.scope.kind === 'session' && e.scope.turn === scope.turn && e.slot === d.slot && e.toolId === d.toolId && (d.state === undefined || d.state === e.state),
  );
  // Two rows at one address (a discarded row kept beside its successor): an address names the one not yet disclosed,
  // and of those the one without a resolution, whose disclosure §8 requires (a resolved row's is optional).
  const open = hits.filter((e) => !taken.has(e.effectId));
  return (open.find((e) => e.resolution === null || e.resolution === undefined) ?? open[0] ?? hits[0])?.effectId ?? null;
}
