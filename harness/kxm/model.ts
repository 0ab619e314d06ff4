// The KXM effects-and-recovery contract as pure functions: the effective class, the lease fence, the crash matrix's
// recovery decision, the evidence a resolution needs, and what a cancellation may conclude. Written from the spec's tables.
import type { KxmClass, KxmEffectState, KxmRecoveryDecision, KxmRegistry, KxmResolutionAction } from '../../shared/protocol/schemas.js';

// The spec's class table in order of recovery caution: a declaration may move an effect down this list, never up.
const CAUTION: readonly KxmClass[] = ['read-only', 'workspace-mutation', 'external-idempotent', 'receipt-queryable', 'unknown', 'external-non-idempotent'];

/** "The registry decides; workflow or model metadata cannot downgrade it; unknown tools default to unknown." */
export function expectedClass(registry: KxmRegistry, toolId: string, declared: KxmClass | undefined): { effectClass: KxmClass; declarationAccepted: boolean } {
  const base: KxmClass = Object.hasOwn(registry.tools, toolId) ? registry.tools[toolId]!.class : 'unknown';
  if (declared === undefined || declared === base) return { effectClass: base, declarationAccepted: true };
  return CAUTION.indexOf(declared) > CAUTION.indexOf(base) ? { effectClass: declared, declarationAccepted: true } : { effectClass: base, declarationAccepted: false };
}

/** Classes whose absence the external system can prove. */
export function queryable(c: KxmClass): boolean {
  return c === 'external-idempotent' || c === 'receipt-queryable';
}

/** What the engine observed at recovery. */
export interface KxmObservation {
  readonly process: 'ended' | 'alive_same' | 'replacement_exists' | 'unknown';
  readonly receipt: { readonly kind: 'found' | 'absent' | 'unavailable' | 'ambiguous' | 'not_queried' };
  readonly postcondition?: 'verified' | 'absent' | 'not_comparable';
}

/**
 * The crash matrix: last durable evidence → recovery decision (and the state it leaves). An intent never dispatched
 * provably never started (unless its lease expired or was re-granted); a dispatched effect is reattached, retried
 * (read-only), reconciled from its workspace, recorded from a found receipt, retried under its key after proven
 * absence (no replacement running), and otherwise blocked_uncertain.
 */
export function expectedDecision(state: KxmEffectState, c: KxmClass, o: KxmObservation, expired: boolean, fenced: boolean): { decision: KxmRecoveryDecision; state: KxmEffectState } {
  switch (state) {
    case 'completed':
    case 'failed':
    case 'cancelled':
    case 'not_started':
      return { decision: 'none', state };
    case 'blocked_uncertain':
      // A later observation is no retroactive proof: only a resolution leaves this state.
      return { decision: 'blocked_uncertain', state };
    case 'intent':
      if (expired) return { decision: 'lease_expired', state: 'not_started' };
      if (fenced) return { decision: 'lease_fenced', state: 'not_started' };
      return { decision: 'start_planned_attempt', state: 'intent' };
    case 'dispatched': {
      const block = { decision: 'blocked_uncertain' as const, state: 'blocked_uncertain' as const };
      if (o.process === 'alive_same') return { decision: 'reattach', state };
      if (c === 'read-only') return { decision: 'retry_bounded', state };
      if (c === 'workspace-mutation') return o.postcondition === 'verified' ? { decision: 'record_postcondition', state: 'completed' } : block;
      if (!queryable(c)) return block;
      if (o.receipt.kind === 'found') return { decision: 'record_receipt', state: 'completed' };
      if (o.receipt.kind === 'absent' && o.process !== 'replacement_exists') return { decision: 'retry_same_key', state };
      return block;
    }
  }
}

export interface KxmEvidence {
  readonly receiptId?: string | undefined;
  readonly receiptAuthoritative?: boolean | undefined;
  readonly postconditionVerified?: boolean | undefined;
  readonly negativeQueryAuthoritative?: boolean | undefined;
  readonly compensationReceiptId?: string | undefined;
  readonly workflowAuthorized?: boolean | undefined;
  readonly newAttemptId?: string | undefined;
}

/** The state a resolution of a blocked effect leads to, or null when its required evidence is missing. */
export function resolutionOutcome(action: KxmResolutionAction, reason: string, e: KxmEvidence, attemptId: string): KxmEffectState | null {
  if (reason.trim() === '') return null;
  const fresh = e.newAttemptId !== undefined && e.newAttemptId !== attemptId;
  switch (action) {
    case 'mark_completed':
      return (e.receiptId !== undefined && e.receiptAuthoritative === true) || e.postconditionVerified === true ? 'completed' : null;
    case 'confirm_absent_retry':
      return e.negativeQueryAuthoritative === true && fresh ? 'intent' : null;
    case 'compensate_retry':
      return e.compensationReceiptId !== undefined && e.workflowAuthorized === true && fresh ? 'intent' : null;
    case 'mark_failed':
      return 'failed';
  }
}

/** "Mark cancelled only when no unresolved effect remains, otherwise uncertainty remains visible." */
export function cancelOutcome(states: readonly KxmEffectState[]): 'cancelled' | 'blocked_uncertain' {
  return states.some((s) => s === 'dispatched' || s === 'blocked_uncertain') ? 'blocked_uncertain' : 'cancelled';
}
