// The model of prepare (§2, §4, §11): the verdicts an identity allows, the replayed projections, and the row it leaves.
import type { PrepareRequest, PrepareVerdict } from '../../shared/protocol/schemas.js';
import { describeVerdicts, expectPrepare, verdictAllowed, type AllowedVerdict, type ExistingRowView } from './gate-table.js';
import { addrOf, rowById, withBeside, withRow, type MRow, type MState } from './journal-state.js';
import { fail, ok, type OpEnv, type Outcome } from './outcome.js';
import { jsonEqual, sameCall } from './projection.js';
import type { ClauseId } from './clauses.js';
import { rowLabel } from './run-ops.js';

/** Checks an answered prepare against the row at its identity and applies it. */
export function prepareAnswered(state: MState, p: PrepareRequest, v: PrepareVerdict, _env: OpEnv): Outcome {
  const { addr, scope } = identity(p);
  const existing = state.rows.get(addr) ?? null;
  const allowed = expectPrepare(existing === null ? null : view(existing, p));
  const observed = v.verdict === 'refuse' ? { verdict: v.verdict, code: v.code } : { verdict: v.verdict };
  if (!verdictAllowed(allowed, observed)) {
    return fail(verdictClause(existing, p, allowed), `prepare ${describeAddr(p)}`, describeVerdicts(allowed), v.verdict === 'refuse' ? `refuse (${v.code})` : v.verdict);
  }
  if (v.verdict === 'proceed') {
    const ikey = v.idempotencyKey ?? null;
    // Keys are tier 1's alone (§2): a tier-1 row without one can never be retried safely.
    if (p.tier === 1 && ikey === null) return fail('key.verbatim', `prepare ${describeAddr(p)}: the tier-1 idempotency key`, 'a key generated at prepare', 'none');
    // Generated per effect, never derived from what the call asks: a twin with equal arguments at another identity is
    // another effect, and a key the two shared would let the target deduplicate the second one away.
    const shared = p.tier === 1 && ikey !== null ? [...state.rows.values()].find((r) => r.addr !== addr && r.ikey === ikey) : undefined;
    if (shared) return fail('key.distinct', `prepare ${describeAddr(p)}: the tier-1 idempotency key`, 'a key no other effect holds', `${ikey}, already the key of ${rowLabel(shared)}`);
    const clash = rowById(state, v.effectId);
    if (clash && clash.addr !== addr) return fail('listing', `prepare ${describeAddr(p)}: the new row's effect id`, 'an id no other live row has', `${v.effectId}, already the id of another row`);
    const row: MRow = {
      addr, scope, slot: p.slot, toolId: p.toolId, tier: p.tier, id: v.effectId, state: 'unresolved', sub: 'prepared',
      args: { args: p.args, secretArgKeys: p.secretArgKeys }, mapping: p.outputMappingConfig, result: null,
      ikey, callId: p.audit.callId, resolution: null, canaries: [],
    };
    const clauses: ClauseId[] = ['prepare.verdict', ...(p.tier === 1 ? (['key.distinct'] as const) : [])];
    // A discarded row gives its identity up: docs/protocol.md lets the journal replace it or keep it beside the new one.
    if (existing?.resolution === 'discarded') return { ok: true, next: withRow(state, row), clauses, alternatives: [withRow(withBeside(state, existing), row)] };
    return ok(withRow(state, row), ...clauses);
  }
  const row = existing!;
  if (v.effectId !== null && row.id !== null && v.effectId !== row.id) {
    return fail('listing', `prepare ${describeAddr(p)}: the effect id of the existing row`, row.id, v.effectId);
  }
  const learnt = row.id === null && v.effectId !== null ? withRow(state, { ...row, id: v.effectId }) : state;
  if (v.verdict === 'replay') {
    if (!jsonEqual(v.result, row.result)) return fail('replay.recorded', `replay at ${describeAddr(p)}`, row.result, v.result);
    return ok(learnt, 'prepare.verdict', 'replay.recorded', ...relationClauses(row, p));
  }
  return ok(learnt, 'prepare.verdict', ...relationClauses(row, p));
}

/** The possible journals after a prepare the driver was killed inside (its verdict never arrived). */
export function prepareApplied(state: MState, p: PrepareRequest): MState[] {
  const { addr, scope } = identity(p);
  const existing = state.rows.get(addr) ?? null;
  const allowed = expectPrepare(existing === null ? null : view(existing, p));
  if (!allowed.some((a) => a.verdict === 'proceed')) return [state];
  const row: MRow = {
    addr, scope, slot: p.slot, toolId: p.toolId, tier: p.tier, id: null, state: 'unresolved', sub: 'prepared',
    args: { args: p.args, secretArgKeys: p.secretArgKeys }, mapping: p.outputMappingConfig, result: null,
    ikey: 'unknown', callId: p.audit.callId, resolution: null, canaries: [],
  };
  // A discarded row replaced, or kept beside the new one; where a refusal was allowed too (a session's), left as it was.
  const applied = existing?.resolution === 'discarded' ? [withRow(state, row), withRow(withBeside(state, existing), row)] : [withRow(state, row)];
  return allowed.some((a) => a.verdict === 'refuse') ? [state, ...applied] : applied;
}

function identity(p: PrepareRequest) {
  const c = p.correlation;
  const scope = c.kind === 'run' ? { kind: 'run' as const, runId: c.runId, nodeId: c.nodeId } : { kind: 'session' as const, sessionId: c.sessionId, turn: c.turn };
  return { scope, addr: addrOf(scope, p.slot, p.toolId) };
}

function view(row: MRow, p: PrepareRequest): ExistingRowView {
  return {
    scope: row.scope.kind,
    state: row.state,
    resolution: row.resolution,
    legacyDigest: row.args === 'legacy',
    sameArgs: row.args === 'legacy' ? 'different' : sameCall(row.args, { args: p.args, secretArgKeys: p.secretArgKeys }),
    sameMapping: jsonEqual(row.mapping ?? null, p.outputMappingConfig ?? null),
    retained: row.result !== null,
  };
}

// The clause a wrong verdict breaks, so the counterexample names the rule and not only "prepare".
function verdictClause(existing: MRow | null, p: PrepareRequest, allowed: readonly AllowedVerdict[]): ClauseId {
  if (existing === null) return 'prepare.verdict';
  if (existing.scope.kind === 'session') return 'session.never-replays';
  if (existing.args === 'legacy') return 'legacy.digest';
  if (existing.state !== 'committed') return 'prepare.verdict';
  const v = view(existing, p);
  if (allowed.some((a) => a.verdict === 'replay')) {
    // Same call in other bytes (key order, rotated secrets): the digest relation broke; same bytes: the mapping's order did.
    if (JSON.stringify(existing.args.args) !== JSON.stringify(p.args)) return 'digest.same-call';
    return JSON.stringify(existing.mapping) === JSON.stringify(p.outputMappingConfig) ? 'prepare.verdict' : 'mapping.changed';
  }
  if (v.sameArgs === 'different') return 'digest.public-change';
  return v.sameMapping ? 'prepare.verdict' : 'mapping.changed';
}

// A verdict on a re-run that asked an equal (or a different) question also confirms a §11 relation.
function relationClauses(row: MRow, p: PrepareRequest): ClauseId[] {
  if (row.state !== 'committed' || row.args === 'legacy' || row.scope.kind !== 'run') return [];
  const same = sameCall(row.args, { args: p.args, secretArgKeys: p.secretArgKeys });
  if (same === 'same') return jsonEqual(row.mapping ?? null, p.outputMappingConfig ?? null) ? ['digest.same-call'] : ['mapping.changed'];
  return same === 'different' ? ['digest.public-change'] : [];
}

/** The identity in the words a counterexample uses. */
export function describeAddr(p: Pick<PrepareRequest, 'correlation' | 'slot' | 'toolId'>): string {
  const c = p.correlation;
  const scope = c.kind === 'run' ? `run ${JSON.stringify(c.runId)} node ${JSON.stringify(c.nodeId)}` : `session ${JSON.stringify(c.sessionId)} turn ${c.turn}`;
  return `${scope} slot ${p.slot} ${p.toolId}`;
}
