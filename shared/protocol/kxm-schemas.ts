// The KXM recovery-class operations' schemas (spec kxm-effects-and-recovery), part of the wire protocol.
import { z } from 'zod';
import { Tier } from './core-schemas.js';

/** KXM (spec kxm-effects-and-recovery): effect classes from a trusted registry, recovery decisions, evidence-backed resolution. */
export const KxmClass = z.enum(['read-only', 'workspace-mutation', 'external-idempotent', 'receipt-queryable', 'unknown', 'external-non-idempotent']);
export const KxmRegistry = z.object({
  revision: z.string().min(1),
  tools: z.record(z.string(), z.object({ class: KxmClass, receiptQuery: z.string().min(1).nullable() })),
});
export const KxmLease = z.object({ leaseId: z.string().min(1), fencingToken: z.number().int().min(0), expiresAt: z.number().int() });
export const KxmEffectState = z.enum(['intent', 'dispatched', 'completed', 'blocked_uncertain', 'not_started', 'failed', 'cancelled']);
export const KxmResolutionAction = z.enum(['mark_completed', 'confirm_absent_retry', 'compensate_retry', 'mark_failed']);
export const KxmAuditEntry = z.object({
  action: z.enum(['mark_completed', 'confirm_absent_retry', 'compensate_retry', 'mark_failed', 'cancel']),
  actor: z.string().min(1),
  reason: z.string(),
  references: z.array(z.string()),
  result: z.string(),
});
export const KxmEffect = z.object({
  effectId: z.string().min(1),
  runId: z.string().min(1),
  stepId: z.string().min(1),
  assignmentId: z.string().min(1),
  attemptId: z.string().min(1),
  slot: z.number().int(),
  toolId: z.string().min(1),
  effectClass: KxmClass,
  tier: Tier.nullable().default(null),
  declaredClass: KxmClass.nullable().default(null),
  /** False when the tool metadata tried to claim a safer class than the registry's. */
  declarationAccepted: z.boolean(),
  registryRevision: z.string().min(1),
  receiptQuery: z.string().nullable().default(null),
  idempotencyKey: z.string().min(1),
  state: KxmEffectState,
  lease: KxmLease.nullable().default(null),
  receipt: z.object({ receiptId: z.string().min(1), source: z.enum(['completion', 'query', 'resolution']) }).nullable().default(null),
  blocked: z.object({ reason: z.string(), permittedResolutions: z.array(KxmResolutionAction) }).nullable().default(null),
  reconciliationAttempts: z.number().int().min(0),
  audit: z.array(KxmAuditEntry),
});
/** The effect's identity fields, as the engine declares them; the rest is the journal's to decide. */
export const KxmDeclareRequest = KxmEffect.pick({ runId: true, stepId: true, assignmentId: true, attemptId: true, slot: true, toolId: true }).extend({
  /** What the tool's own metadata claims: untrusted, it may only make the class more cautious. */
  declaredClass: KxmClass.optional(),
  registry: KxmRegistry,
  lease: KxmLease.optional(),
});
export const KxmDeclareVerdict = z.discriminatedUnion('verdict', [
  z.object({ verdict: z.literal('recorded'), effect: KxmEffect }),
  z.object({ verdict: z.literal('refused'), code: z.enum(['duplicate_identity', 'run_cancelled']), effectId: z.string().nullable().default(null), message: z.string() }),
]);
export const KxmDispatchRequest = z.object({ effectId: z.string().min(1), attemptId: z.string().min(1), now: z.number().int() });
export const KxmDispatchResult = z.object({
  effectId: z.string().min(1),
  started: z.boolean(),
  /** lease_fenced: the lease was re-granted under a higher fencing token than the one this intent recorded. */
  reason: z.enum(['lease_expired', 'run_cancelled', 'lease_fenced']).nullable().default(null),
  state: KxmEffectState,
  idempotencyKey: z.string().min(1),
});
export const KxmCompleteRequest = z.object({ effectId: z.string().min(1), attemptId: z.string().min(1), receiptId: z.string().min(1) });
export const KxmReceiptObservation = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('found'), receiptId: z.string().min(1) }),
  z.object({ kind: z.literal('absent') }),
  z.object({ kind: z.literal('unavailable') }),
  z.object({ kind: z.literal('ambiguous') }),
  z.object({ kind: z.literal('not_queried') }),
]);
export const KxmRecoverRequest = z.object({
  effectId: z.string().min(1),
  now: z.number().int(),
  observation: z.object({
    process: z.enum(['ended', 'alive_same', 'replacement_exists', 'unknown']),
    receipt: KxmReceiptObservation,
    postcondition: z.enum(['verified', 'absent', 'not_comparable']).optional(),
  }),
});
export const KxmRecoveryDecision = z.enum([
  'start_planned_attempt',
  'reattach',
  'record_receipt',
  'record_postcondition',
  'retry_same_key',
  'retry_bounded',
  'lease_expired',
  'lease_fenced',
  'blocked_uncertain',
  'none',
]);
export const KxmRecoverResult = z.object({
  effectId: z.string().min(1),
  decision: KxmRecoveryDecision,
  state: KxmEffectState,
  attemptId: z.string().min(1),
  idempotencyKey: z.string().min(1),
  reason: z.string(),
});
export const KxmResolveRequest = z.object({
  effectId: z.string().min(1),
  action: KxmResolutionAction,
  actor: z.string().min(1),
  reason: z.string(),
  evidence: z.object({
    receiptId: z.string().min(1).optional(),
    receiptAuthoritative: z.boolean().optional(),
    postconditionVerified: z.boolean().optional(),
    negativeQueryAuthoritative: z.boolean().optional(),
    compensationReceiptId: z.string().min(1).optional(),
    workflowAuthorized: z.boolean().optional(),
    newAttemptId: z.string().min(1).optional(),
  }),
});
export const KxmCancelRequest = z.object({ runId: z.string().min(1), actor: z.string().min(1), reason: z.string() });
export const KxmRunState = z.enum(['active', 'blocked_uncertain', 'cancelled']);
export const KxmCancelResult = z.object({
  runId: z.string().min(1),
  state: KxmRunState,
  unresolvedEffectIds: z.array(z.string()),
  cancelledEffectIds: z.array(z.string()),
});
export const KxmListResult = z.object({
  run: z.object({ runId: z.string().min(1), state: KxmRunState, cancelRequested: z.boolean() }),
  effects: z.array(KxmEffect),
});

export type KxmClass = z.infer<typeof KxmClass>;
export type KxmRegistry = z.infer<typeof KxmRegistry>;
export type KxmEffect = z.infer<typeof KxmEffect>;
export type KxmEffectState = z.infer<typeof KxmEffectState>;
export type KxmRecoveryDecision = z.infer<typeof KxmRecoveryDecision>;
export type KxmResolutionAction = z.infer<typeof KxmResolutionAction>;
