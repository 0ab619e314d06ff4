// The model of the journal's own listing, fixture seeding and the open-time maintenance (§6, §11).
import type { EffectRow, OpParams } from '../../shared/protocol/schemas.js';
type SeedRequest = OpParams<'seed'>;
import type { OpAnswer } from './history.js';
import { addrOf, checkpointed, identityOf, stateAllowed, stateExpected, withRow, type MRow, type MState } from './journal-state.js';
import { fail, ok, type OpEnv, type Outcome } from './outcome.js';
import { canariesIn, describe, rowLabel } from './run-ops.js';
import { missingClause } from './session-ops.js';

/** listEffects must hold exactly the model's rows, each in the state its operations left it; ids and keys are learnt. */
export function listAnswered(state: MState, answer: OpAnswer, env: OpEnv): Outcome {
  // With gate: "harness" this listing is the gate's read, and gate_read_fails makes it fail (protocol.md, faults): the
  // gate's refusal, not a broken listing, is what §4 ("a gate read that fails is a refusal, not a pass") judges.
  if (answer.kind === 'error' && env.gateReadsListing && env.faults.has('gate_read_fails')) return ok(state, 'gate.read-failure');
  if (answer.kind !== 'result') return fail('listing', 'listEffects', 'the rows', describe(answer));
  const effects = (answer.result as { effects: EffectRow[] }).effects;
  const left = new Map(state.rows);
  let next = state;
  for (const e of effects) {
    const addr = addrOf(e.scope, e.slot, e.toolId);
    // A discarded row kept beside its identity's new row is listed under the same identity: told apart by its id.
    const beside = [...left.values()].find((r) => r.addr !== addr && identityOf(r) === addr && r.id === e.effectId);
    const row = beside ?? left.get(addr);
    if (!row) {
      const known = state.rows.get(addr);
      return fail('listing', `listEffects: row ${e.effectId} at ${addr}`, known ? 'listed once' : 'no such row (none of the operations created it, or it was swept)', e.state);
    }
    left.delete(row.addr);
    if (row.id !== null && row.id !== e.effectId) return fail('listing', `listEffects: id of ${rowLabel(row)}`, row.id, e.effectId);
    const mismatch = rowMismatch(row, e);
    if (mismatch !== null) return fail(env.afterRestart ? 'durability' : mismatch.clause, `listEffects${env.afterRestart ? ' after the restart' : ''}: ${rowLabel(row)}`, mismatch.expected, mismatch.observed);
    next = withRow(next, { ...row, id: e.effectId, ikey: row.ikey === 'unknown' ? e.idempotencyKey : row.ikey });
  }
  const missing = [...left.values()][0];
  if (missing) return fail(env.afterRestart && missing.state === 'unresolved' ? 'durability' : missingClause(missing), `listEffects${env.afterRestart ? ' after the restart' : ''}`, `${rowLabel(missing)} still present`, 'missing');
  return ok(next, 'listing', ...(env.afterRestart ? (['durability'] as const) : []));
}

function rowMismatch(row: MRow, e: EffectRow): { clause: 'state.machine' | 'session.no-result' | 'key.verbatim' | 'listing'; expected: unknown; observed: unknown } | null {
  if (!stateAllowed(row, e.state)) return { clause: 'state.machine', expected: stateExpected(row), observed: e.state };
  if (e.tier !== row.tier) return { clause: 'listing', expected: { tier: row.tier }, observed: { tier: e.tier } };
  const retained = row.result !== null || row.legacyResult === true;
  // A legacy session result not yet cleared may be reported or not: §11 lets a session audit reader omit the result
  // column, and the byte scan, not this flag, is what proves its erasure.
  const either = row.scope.kind === 'session' && row.legacyResult === true;
  if (!either && e.resultRetained !== retained) return { clause: row.scope.kind === 'session' ? 'session.no-result' : 'state.machine', expected: { resultRetained: retained }, observed: { resultRetained: e.resultRetained } };
  if (typeof row.ikey === 'string' && row.ikey !== 'unknown' && e.idempotencyKey !== row.ikey) return { clause: 'key.verbatim', expected: row.ikey, observed: e.idempotencyKey };
  // Only tier 1 must have a key (§2); a tier-2/3 prepare whose verdict a kill swallowed may have stored none.
  if (row.ikey === 'unknown' && e.idempotencyKey === null && row.tier === 1) return { clause: 'key.verbatim', expected: 'the key generated at prepare', observed: null };
  if ((row.resolution ?? null) !== (e.resolution?.decision ?? null)) return { clause: 'listing', expected: { resolution: row.resolution }, observed: { resolution: e.resolution?.decision ?? null } };
  return null;
}

/** Seeded rows are the legacy writer's: a digest without `v5:` can never be compared; a legacy session result is held until cleared. */
export function seedAnswered(state: MState, p: SeedRequest, answer: OpAnswer, env: OpEnv): Outcome {
  if (answer.kind === 'error') return answer.code === 'seed_unsupported' ? ok(state) : fail('listing', 'seed', 'the rows planted', describe(answer));
  if (answer.kind !== 'result') return ok(state);
  const ids = (answer.result as { effectIds: string[] }).effectIds;
  return ok(seeded(state, p, ids, env));
}

export function seeded(state: MState, p: SeedRequest, ids: ReadonlyArray<string | null>, env: OpEnv): MState {
  let next = state;
  p.rows.forEach((s, i) => {
    const row: MRow = {
      addr: addrOf(s.scope, s.slot, s.toolId), scope: s.scope, slot: s.slot, toolId: s.toolId, tier: s.tier, id: ids[i] ?? null,
      state: s.state === 'committed' ? 'committed' : 'unresolved', sub: s.state === 'prepared' ? 'prepared' : 'ambiguous',
      args: 'legacy', mapping: undefined, result: null, ikey: null, callId: s.callId, resolution: null,
      canaries: s.resultJson === null ? [] : canariesIn(s.resultJson, env),
      legacyResult: s.scope.kind === 'session' && s.resultJson !== null,
    };
    next = withRow(next, row);
  });
  return next;
}

/** Opening clears every legacy session result and checkpoints: with no other connection the bytes must be gone. */
export function opened(state: MState, env: OpEnv): MState {
  let next = state;
  const freed = new Map(state.freed);
  for (const row of state.rows.values()) {
    if (row.scope.kind !== 'session' || (row.canaries.length === 0 && row.legacyResult !== true)) continue;
    for (const c of row.canaries) freed.set(c, 'pending');
    next = withRow(next, { ...row, canaries: [], legacyResult: false });
  }
  next = { ...next, freed };
  return env.othersLive === 0 ? checkpointed(next) : next;
}
