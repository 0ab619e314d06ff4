// The model of settle, the gate, reconcile, resolve and the terminal sweep (§4, §6, §9) over one possible journal.
import { isUnresolvedState, type GateDecision, type ReconcileRequest, type ReconcileResult, type RecordedResult, type SettleRequest, type TierMode } from '../../shared/protocol/schemas.js';
import { expectGate, gateAction, type GateRowView } from './gate-table.js';
import { nodeRows, rowById, stateAllowed, stateExpected, withRow, withoutRows, type MRow, type MState } from './journal-state.js';
import { fail, firstFailure, ok, type OpEnv, type Outcome } from './outcome.js';
import type { OpAnswer } from './history.js';

/** settle: a prepared row settles once, committed (a run row keeps its result, a session row never) or ambiguous. */
export function settleAnswered(state: MState, p: SettleRequest, answer: OpAnswer, env: OpEnv): Outcome {
  const row = rowById(state, p.effectId);
  const err = answer.kind === 'error' ? answer.code : null;
  if (!row) {
    // A row whose id the model has not learnt yet may be the one the journal means.
    if ([...state.rows.values()].some((r) => r.id === null)) return ok(state);
    return err === 'settle_no_row' ? ok(state, 'state.machine') : fail('state.machine', `settle of ${p.effectId}, an id no row has`, 'error settle_no_row', describe(answer));
  }
  if (row.state === 'committed' || row.sub === 'ambiguous') {
    return err === 'settle_already_settled' ? ok(state, 'state.machine') : fail('state.machine', `settle of ${p.effectId}, already ${row.state === 'committed' ? 'committed' : 'ambiguous'}`, 'error settle_already_settled', describe(answer));
  }
  if (err !== null) {
    if (err === 'settle_write_failed' && env.faults.has('settle_write_fails')) return ok(state, 'state.machine');
    // A row moved to needs_attention, or resolved by an operator, is no longer prepared (protocol.md: settle_already_settled);
    // a journal that keeps a resolved row's state prepared may take the late answer instead (below).
    if (err === 'settle_already_settled' && (row.sub === 'attention' || row.resolution !== null)) return ok(state, 'state.machine');
    return fail('state.machine', `settle of the prepared row ${p.effectId}`, `${p.state}`, describe(answer));
  }
  const result = answer.kind === 'result' ? (answer.result as { effectId?: string; state?: string }) : {};
  // An ambiguous settle leaves the row unresolved, and which unresolved state it shows is the journal's choice
  // (protocol.md: "an unresolved row's state: prepared, ambiguous or needs_attention | free"; §6: ambiguous -->
  // needs_attention for tier 3): a journal may store and answer needs_attention at once.
  const answered = p.state === 'ambiguous' ? isUnresolvedState(result.state) : result.state === p.state;
  if (result.effectId !== p.effectId || !answered) return fail('state.machine', `settle answer for ${p.effectId}`, { effectId: p.effectId, state: p.state === 'ambiguous' ? 'prepared | ambiguous | needs_attention' : p.state }, result);
  return ok(settled(state, row, p, env), 'state.machine');
}

/** The journal after a settle that took effect. */
export function settled(state: MState, row: MRow, p: SettleRequest, env: OpEnv): MState {
  if (p.state === 'ambiguous') return withRow(state, { ...row, sub: 'ambiguous' });
  const result = row.scope.kind === 'run' ? p.result : null;
  return withRow(state, { ...row, state: 'committed', result, canaries: result === null ? [] : canariesIn(result, env) });
}

export function settleApplied(state: MState, p: SettleRequest, env: OpEnv): MState[] {
  const row = rowById(state, p.effectId);
  if (!row || row.state === 'committed' || row.sub === 'ambiguous') return [state];
  return [settled(state, row, p, env)];
}

/** The §4 gate over every row of a run node; the rows' ids and keys are learnt from it. */
export function gateAnswered(state: MState, scope: { runId: string; nodeId: string }, answer: OpAnswer, env: OpEnv): Outcome {
  const where = `gate of run ${JSON.stringify(scope.runId)} node ${JSON.stringify(scope.nodeId)}`;
  // While the read is made to fail, an error answer is a refusal as an engine reads it (§4), never a pass.
  if (answer.kind === 'error' && env.faults.has('gate_read_fails')) return ok(state, 'gate.read-failure');
  if (answer.kind !== 'result') return fail('gate.table', where, 'a gate decision', describe(answer));
  const g = answer.result as GateDecision;
  if (env.faults.has('gate_read_fails')) {
    return g.decision === 'refuse' && g.refusal?.code === 'gate_read_failed' ? ok(state, 'gate.read-failure') : fail('gate.read-failure', `${where} while its read fails`, 'refuse (gate_read_failed)', summary(g));
  }
  const rows = nodeRows(state, scope.runId, scope.nodeId);
  const matched = matchEffects(rows, g.effects);
  if ('failure' in matched) return fail('gate.scope', where, rows.map(rowLabel), matched.failure);
  let next = state;
  for (const [row, effect] of matched.pairs) {
    const action = gateAction(gateView(row), env.tierMode);
    const problem = firstFailure([
      effect.tier !== row.tier ? fail('listing', `${where}: tier of ${rowLabel(row)}`, row.tier, effect.tier) : null,
      !stateAllowed(row, effect.state) ? fail('state.machine', `${where}: state of ${rowLabel(row)}`, stateExpected(row), effect.state) : null,
      effect.action !== action ? fail(tierClause(row, env.tierMode), `${where}: action for ${rowLabel(row)}`, action, effect.action) : null,
      keyProblem(row, effect.idempotencyKey, where),
    ], () => ok(next));
    if (!problem.ok) return problem;
    const sub = action === 'needs_attention' && row.sub === 'prepared' ? 'attention' : row.sub;
    next = withRow(next, { ...row, id: effect.effectId, sub, ikey: row.ikey === 'unknown' ? effect.idempotencyKey : row.ikey });
  }
  const expected = expectGate(rows.map(gateView), env.tierMode);
  if (g.decision !== expected.decision) {
    const clause = rows.some((r) => r.tier !== 3 && env.tierMode === 'conservative') ? 'tiers.named' : 'gate.table';
    return fail(clause, `${where} decision`, expected.decision, g.decision);
  }
  if (expected.refusal !== null) {
    const attention = new Set(matched.pairs.filter(([r]) => gateAction(gateView(r), env.tierMode) === 'needs_attention').map(([, e]) => e.effectId));
    const refusal = g.refusal;
    if (refusal?.code !== 'effect_needs_attention' || refusal.tier === null || !expected.refusal.tiers.includes(refusal.tier)) {
      return fail('tiers.named', `${where} refusal`, { code: 'effect_needs_attention', tier: expected.refusal.tiers }, refusal);
    }
    if (refusal.effectIds.length === 0 || refusal.effectIds.some((id) => !attention.has(id))) {
      return fail('gate.table', `${where} refusal names the rows that need attention`, [...attention], refusal.effectIds);
    }
  }
  return ok(next, 'gate.table', 'gate.scope', ...(rows.some((r) => r.tier !== 3) ? (['tiers.named'] as const) : []));
}

/** reconcile (tiers 1/2): a retried or found result commits the row; proven absence asks for one execution under the stored key. */
export function reconcileAnswered(state: MState, p: ReconcileRequest, answer: OpAnswer): Outcome {
  const row = rowById(state, p.effectId);
  const where = `reconcile of ${p.effectId} (${p.evidence.kind})`;
  if (!row) return ok(state);
  if (answer.kind !== 'result') return fail('reconcile', where, 'the row reconciled', describe(answer));
  const r = answer.result as ReconcileResult;
  if (p.evidence.kind === 'receipt_absent') {
    if (r.execute === null) return fail('reconcile', where, 'execute once under the stored key', 'no execution');
    const bad = keyProblem(row, r.execute.idempotencyKey, where);
    if (bad) return bad;
    return ok(withRow(state, { ...row, state: 'unresolved', sub: 'prepared', result: null, ikey: row.ikey === 'unknown' ? r.execute.idempotencyKey : row.ikey }), 'reconcile', 'key.verbatim');
  }
  if (r.state !== 'committed' || r.execute !== null) return fail('reconcile', where, { state: 'committed', execute: null }, { state: r.state, execute: r.execute });
  return ok(reconciled(state, row, p.evidence.result), 'reconcile');
}

function reconciled(state: MState, row: MRow, result: RecordedResult): MState {
  return withRow(state, { ...row, state: 'committed', result, sub: 'prepared' });
}

export function reconcileApplied(state: MState, p: ReconcileRequest): MState[] {
  const row = rowById(state, p.effectId);
  if (!row) return [state];
  if (p.evidence.kind === 'receipt_absent') return [withRow(state, { ...row, state: 'unresolved', sub: 'prepared', result: null })];
  return [reconciled(state, row, p.evidence.result)];
}

/** resolve: an unresolved row gets the operator's decision; anything else is refused. */
export function resolveAnswered(state: MState, p: { effectId: string; decision: 'accepted' | 'discarded'; actor: string }, answer: OpAnswer): Outcome {
  const row = rowById(state, p.effectId);
  if (!row) return ok(state);
  const where = `resolve ${p.effectId} as ${p.decision}`;
  if (row.state === 'committed' || row.resolution !== null) {
    return answer.kind === 'error' && answer.code === 'resolve_invalid' ? ok(state, 'resolution') : fail('resolution', `${where} (not unresolved)`, 'error resolve_invalid', describe(answer));
  }
  if (answer.kind !== 'result') return fail('resolution', where, 'the resolved row', describe(answer));
  const res = (answer.result as { resolution?: { decision?: string; actor?: string } | null }).resolution;
  if (res?.decision !== p.decision || res.actor !== p.actor) return fail('resolution', where, { decision: p.decision, actor: p.actor }, res ?? null);
  return ok(withRow(state, { ...row, resolution: p.decision }), 'resolution');
}

export function resolveApplied(state: MState, p: { effectId: string; decision: 'accepted' | 'discarded' }): MState[] {
  const row = rowById(state, p.effectId);
  if (!row || row.state === 'committed' || row.resolution !== null) return [state];
  return [withRow(state, { ...row, resolution: p.decision })];
}

/**
 * The terminal sweep: a run's committed rows go; unresolved rows stay; a resolved row may go or stay (§9), decided by
 * its decision or for all alike (an accepted row is "treated as committed", §8, so it may go with the committed ones).
 */
export function terminalOutcomes(state: MState, runId: string): Array<{ deleted: number; next: MState }> {
  const own = [...state.rows.values()].filter((r) => r.scope.kind === 'run' && r.scope.runId === runId);
  const committed = own.filter((r) => r.state === 'committed').map((r) => r.addr);
  const resolved = (d: 'accepted' | 'discarded'): string[] => own.filter((r) => r.state !== 'committed' && r.resolution === d).map((r) => r.addr);
  const [accepted, discarded] = [resolved('accepted'), resolved('discarded')];
  const choices: string[][] = [[]];
  if (accepted.length > 0) choices.push(accepted);
  if (discarded.length > 0) choices.push(discarded);
  if (accepted.length > 0 && discarded.length > 0) choices.push([...accepted, ...discarded]);
  return choices.map((c) => ({ deleted: committed.length + c.length, next: withoutRows(state, [...committed, ...c]) }));
}

export function terminalAnswered(state: MState, runId: string, answer: OpAnswer): Outcome {
  const where = `terminal sweep of run ${JSON.stringify(runId)}`;
  const options = terminalOutcomes(state, runId);
  if (answer.kind !== 'result') return fail('retention.terminal', where, `${options[0]!.deleted} committed row(s) deleted`, describe(answer));
  const deleted = (answer.result as { deleted: number }).deleted;
  const hits = options.filter((o) => o.deleted === deleted);
  if (hits.length === 0) return fail('retention.terminal', `${where}: rows deleted`, [...new Set(options.map((o) => o.deleted))], deleted);
  return { ok: true, next: hits[0]!.next, clauses: ['retention.terminal'], alternatives: hits.slice(1).map((h) => h.next) };
}

/** The rows as the gate table reads them. */
export function gateView(row: MRow): GateRowView {
  return { tier: row.tier, state: row.state, retained: row.result !== null, resolution: row.resolution };
}

/** A row in the words a counterexample uses. */
export function rowLabel(row: MRow): string {
  const s = row.scope;
  const where = s.kind === 'run' ? `${JSON.stringify(s.runId)}/${JSON.stringify(s.nodeId)}` : `${JSON.stringify(s.sessionId)} turn ${s.turn}`;
  return `${where} slot ${row.slot} ${row.toolId} (tier ${row.tier}, ${row.state}${row.id === null ? '' : `, id ${row.id}`})`;
}

/** A row's stored key must be the one its prepare handed out (and a key must exist at all). */
export function keyProblem(row: MRow, key: string | null, where: string): Outcome | null {
  // Only tier 1 must have a key (§2); a tier-2/3 prepare whose verdict a kill swallowed may have stored none.
  if (row.ikey === 'unknown') return key === null && row.tier === 1 ? fail('key.verbatim', `${where}: the stored idempotency key of ${rowLabel(row)}`, 'the key generated at prepare', null) : null;
  if (row.ikey === null || key === row.ikey) return null;
  return fail('key.verbatim', `${where}: the idempotency key of ${rowLabel(row)}`, row.ikey, key);
}

function matchEffects(rows: readonly MRow[], effects: GateDecision['effects']): { pairs: Array<[MRow, GateDecision['effects'][number]]> } | { failure: unknown } {
  const pairs: Array<[MRow, GateDecision['effects'][number]]> = [];
  const left = new Set(rows);
  for (const e of effects) {
    const byId = rows.find((r) => r.id === e.effectId && left.has(r));
    const byAddr = byId ?? rows.find((r) => r.id === null && left.has(r) && r.slot === e.slot && r.toolId === e.toolId);
    if (!byAddr) return { failure: `listed ${e.effectId} (slot ${e.slot} ${e.toolId}), which is no row of this node` };
    left.delete(byAddr);
    pairs.push([byAddr, e]);
  }
  if (left.size > 0) return { failure: `left out ${[...left].map(rowLabel).join('; ')}` };
  return { pairs };
}

function tierClause(row: MRow, tierMode: TierMode): 'tiers.named' | 'gate.table' {
  return row.tier !== 3 && tierMode === 'conservative' ? 'tiers.named' : 'gate.table';
}

function summary(g: GateDecision): unknown {
  return { decision: g.decision, refusal: g.refusal === null ? null : { code: g.refusal.code, tier: g.refusal.tier } };
}

/** An answer in the words a report uses. */
export function describe(answer: OpAnswer): string {
  if (answer.kind === 'error') return `error ${answer.code}: ${answer.message}`;
  if (answer.kind === 'killed') return `killed at ${answer.at}`;
  return JSON.stringify(answer.result);
}

/** Which planted canaries a recorded result holds. */
export function canariesIn(value: unknown, env: OpEnv): number[] {
  const text = JSON.stringify(value);
  return env.canaries.filter((c) => text.includes(c.value)).map((c) => c.id);
}
