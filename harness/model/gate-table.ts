// §4's resume-gate table and prepare verdicts as pure functions: what the gate and a re-run prepare may answer.
import type { GateDecision, RefusalCode, Tier, TierMode } from '../../shared/protocol/schemas.js';
import type { SameCall } from './projection.js';

export type GateAction = GateDecision['effects'][number]['action'];

/** One row as the gate table reads it. */
export interface GateRowView {
  readonly tier: Tier;
  readonly state: 'unresolved' | 'committed';
  /** A committed run row that kept enough to re-deliver its result. */
  readonly retained: boolean;
  readonly resolution?: 'accepted' | 'discarded' | null;
}

/** What the gate must answer for a node: its decision, each row's action, and a refusal's code and the tiers it may name. */
export interface GateExpectation {
  readonly decision: GateDecision['decision'];
  readonly actions: readonly GateAction[];
  readonly refusal: { readonly code: 'effect_needs_attention' | 'gate_read_failed'; readonly tiers: readonly Tier[] } | null;
}

/** The §4 table for one row: re-deliver, retry under the stored key, reconcile from a receipt, or needs_attention. */
export function gateAction(row: GateRowView, tierMode: TierMode): GateAction {
  if (row.state === 'committed' && row.retained) return 'replay';
  if (row.resolution === 'accepted') return 'none';
  if (row.resolution === 'discarded') return 'run_again';
  // "Tiers 1 and 2 currently take tier 3's row": without a reconciler the conservative answer is attention.
  if (tierMode === 'conservative' || row.tier === 3) return 'needs_attention';
  return row.tier === 1 ? 'retry_with_key' : 'reconcile_receipt';
}

/** The gate over every prior row of a node (attempt dropped); a failed read is a refusal, never a pass. */
export function expectGate(rows: readonly GateRowView[], tierMode: TierMode, readFails = false): GateExpectation {
  if (readFails) return { decision: 'refuse', actions: [], refusal: { code: 'gate_read_failed', tiers: [] } };
  const actions = rows.map((r) => gateAction(r, tierMode));
  const attention = rows.filter((_, i) => actions[i] === 'needs_attention');
  if (attention.length > 0) return { decision: 'refuse', actions, refusal: { code: 'effect_needs_attention', tiers: [...new Set(attention.map((r) => r.tier))] } };
  const reconcile = actions.some((a) => a === 'retry_with_key' || a === 'reconcile_receipt');
  return { decision: reconcile ? 'reconcile' : 'pass', actions, refusal: null };
}

/** The row a prepare finds at its identity, as the verdict rule reads it. */
export interface ExistingRowView {
  readonly scope: 'run' | 'session';
  readonly state: 'unresolved' | 'committed';
  readonly resolution: 'accepted' | 'discarded' | null;
  readonly legacyDigest: boolean;
  /** The re-run's arguments against the recorded ones (§11 projections). */
  readonly sameArgs: SameCall;
  readonly sameMapping: boolean;
  readonly retained: boolean;
}

/**
 * One verdict the contract allows. A refusal's `codes` are the names docs/protocol.md gives the situation, the usual
 * first: informational only. effect-journal.md names no prepare refusal code, and protocol.md leaves "which code names
 * the reason" to the report and the operator, so a code never decides a verdict (a surprising one is a note).
 */
export type AllowedVerdict = { readonly verdict: 'proceed' } | { readonly verdict: 'replay' } | { readonly verdict: 'refuse'; readonly codes: readonly RefusalCode[] };

/** Every verdict a prepare may answer at an identity (several when the contract leaves a choice). */
export function expectPrepare(existing: ExistingRowView | null): AllowedVerdict[] {
  if (existing === null) return [{ verdict: 'proceed' }];
  // "A matching session prepare is always refused, even if an older writer left a result." A row an operator discarded
  // is an effect that did not happen, whose identity §8 ("the node may run again") and docs/protocol.md ("after a
  // discard the journal may reuse the identity") free again: for a session's both readings stand.
  if (existing.scope === 'session') {
    const refuse = { verdict: 'refuse', codes: ['session_never_replays', 'duplicate_identity'] } as const;
    return existing.resolution === 'discarded' ? [refuse, { verdict: 'proceed' }] : [refuse];
  }
  if (existing.legacyDigest) return [{ verdict: 'refuse', codes: ['legacy_digest'] }];
  if (existing.resolution === 'discarded') return [{ verdict: 'proceed' }];
  if (existing.state === 'unresolved' && existing.resolution !== 'accepted') return [{ verdict: 'refuse', codes: ['duplicate_identity', 'unresolved_prior_effect'] }];
  const out: AllowedVerdict[] = [];
  if (existing.sameArgs !== 'same') out.push({ verdict: 'refuse', codes: existing.sameMapping ? ['args_mismatch'] : ['args_mismatch', 'output_mapping_changed'] });
  if (existing.sameArgs !== 'different') {
    if (!existing.sameMapping) out.push({ verdict: 'refuse', codes: ['output_mapping_changed', 'args_mismatch'] });
    else if (existing.retained && existing.state === 'committed') out.push({ verdict: 'replay' });
    // An accepted resolution is "treat as committed" without a result to re-deliver.
    else out.push({ verdict: 'refuse', codes: ['result_not_retained', 'duplicate_identity', 'unresolved_prior_effect'] });
  }
  return out;
}

/** Whether an observed verdict is one of the allowed ones: the verdict decides, a refusal's code never does. */
export function verdictAllowed(allowed: readonly AllowedVerdict[], observed: { verdict: string; code?: string }): boolean {
  return allowed.some((a) => a.verdict === observed.verdict);
}

/** Whether a refusal's code is one of the names protocol.md gives this situation (false: worth a note, never a failure). */
export function codeUsual(allowed: readonly AllowedVerdict[], code: string): boolean {
  return allowed.some((a) => a.verdict === 'refuse' && a.codes.includes(code as RefusalCode));
}

/** An allowed-verdict list in the words a report uses. */
export function describeVerdicts(allowed: readonly AllowedVerdict[]): string[] {
  return allowed.map((a) => (a.verdict === 'refuse' ? `refuse (any code; usually ${a.codes.join(' | ')})` : a.verdict));
}
