// The core wire-protocol schemas: identities, rows and the journal operations' params and results.
import { z } from 'zod';

export const PROTOCOL_VERSION = 1;

const Json: z.ZodType<unknown> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(Json), z.record(z.string(), Json)]),
);
export const JsonValue = Json;
export const JsonObject = z.record(z.string(), Json);

export const Tier = z.union([z.literal(1), z.literal(2), z.literal(3)]);
export const TierMode = z.enum(['conservative', 'reconciling']);

/** §2 EffectCorrelation: exactly one of run or session. attempt is audit only. */
export const RunCorrelation = z.object({
  kind: z.literal('run'),
  runId: z.string().min(1),
  nodeId: z.string().min(1),
  attempt: z.number().int().min(1),
});
export const SessionCorrelation = z.object({
  kind: z.literal('session'),
  sessionId: z.string().min(1),
  turn: z.number().int().min(0),
});
export const EffectCorrelation = z.discriminatedUnion('kind', [RunCorrelation, SessionCorrelation]);

/** The correlation with attempt dropped: what the gate and the UNIQUE identity key on. */
export const RunScope = z.object({ kind: z.literal('run'), runId: z.string().min(1), nodeId: z.string().min(1) });
export const SessionScope = z.object({
  kind: z.literal('session'),
  sessionId: z.string().min(1),
  turn: z.number().int().min(0),
});
export const EffectScope = z.discriminatedUnion('kind', [RunScope, SessionScope]);

/** §2 EffectAttemptId: audit identity of one occurrence; never used for dedup. */
export const AttemptAudit = z.object({
  providerAttempt: z.number().int().min(0),
  callId: z.string().min(1),
  ownerId: z.string().min(1),
  generation: z.number().int().min(0),
});

/** The projections a run row records so a replay re-delivers them verbatim (§4). */
export const RecordedResult = z.object({
  modelValue: z.string(),
  truncated: z.boolean(),
  summary: z.string(),
  outputMappingResult: Json,
});

export const EffectState = z.enum(['prepared', 'committed', 'ambiguous', 'needs_attention']);
/** The states the contract calls unresolved (§9); which of them a row shows is the journal's choice (protocol.md's free table). */
export const UNRESOLVED_STATES: readonly string[] = ['prepared', 'ambiguous', 'needs_attention'];

/** Whether a state is one of UNRESOLVED_STATES. */
export function isUnresolvedState(state: string | null | undefined): boolean {
  return state !== null && state !== undefined && UNRESOLVED_STATES.includes(state);
}
export const Resolution = z.object({
  decision: z.enum(['accepted', 'discarded']),
  actor: z.string().min(1),
  at: z.string().min(1),
});

/** A content-free view of one row: what evidence and disclosure may show. */
export const EffectRow = z.object({
  effectId: z.string().min(1),
  scope: EffectScope,
  slot: z.number().int(),
  toolId: z.string().min(1),
  tier: Tier,
  state: EffectState,
  argsDigest: z.string(),
  // Tier 1 only (§2): protocol.md lets tier 2 and 3 leave it null or absent, and absent reads as null.
  idempotencyKey: z.string().nullable().default(null),
  resultRetained: z.boolean(),
  resolution: Resolution.nullable().default(null),
  attempt: z.object({
    nodeAttempt: z.number().int().nullable().default(null),
    // A seeded (legacy) row arrives with a call id only: what an older writer recorded of the rest is the journal's to
    // report, or null (absent reads as null). The harness judges no row by them.
    providerAttempt: AttemptAudit.shape.providerAttempt.nullable().default(null),
    callId: AttemptAudit.shape.callId,
    ownerId: AttemptAudit.shape.ownerId.nullable().default(null),
    generation: AttemptAudit.shape.generation.nullable().default(null),
  }),
});

export const RefusalCode = z.enum([
  'duplicate_identity',
  'args_mismatch',
  'output_mapping_changed',
  'session_never_replays',
  'legacy_digest',
  'unresolved_prior_effect',
  'result_not_retained',
  'result_corrupt',
]);

export const PrepareRequest = z.object({
  correlation: EffectCorrelation,
  slot: z.number().int(),
  toolId: z.string().min(1),
  tier: Tier,
  args: JsonObject,
  secretArgKeys: z.array(z.string()),
  outputMappingConfig: Json.optional(),
  audit: AttemptAudit,
});
export const PrepareVerdict = z.discriminatedUnion('verdict', [
  // The target idempotency key is tier 1 only (§2): a tier 2 or 3 row may have none.
  z.object({ verdict: z.literal('proceed'), effectId: z.string().min(1), idempotencyKey: z.string().min(1).nullable().optional() }),
  z.object({ verdict: z.literal('replay'), effectId: z.string().min(1), result: RecordedResult }),
  z.object({
    verdict: z.literal('refuse'),
    code: RefusalCode,
    effectId: z.string().min(1).nullable().default(null),
    message: z.string(),
  }),
]);

export const SettleRequest = z.discriminatedUnion('state', [
  z.object({ effectId: z.string().min(1), state: z.literal('committed'), result: RecordedResult.nullable() }),
  z.object({ effectId: z.string().min(1), state: z.literal('ambiguous'), reason: z.string() }),
]);
export const SettleResult = z.object({ effectId: z.string().min(1), state: EffectState });

export const GateAction = z.enum(['replay', 'retry_with_key', 'reconcile_receipt', 'needs_attention', 'run_again', 'none']);
/** `attempt` is the resumed node attempt, carried for audit only: the lookup must never key on it (§4). */
export const GateRequest = z.object({ scope: RunScope, attempt: z.number().int().min(1).optional() });
export const GateDecision = z.object({
  decision: z.enum(['pass', 'reconcile', 'refuse']),
  effects: z.array(
    z.object({
      effectId: z.string().min(1),
      slot: z.number().int(),
      toolId: z.string(),
      tier: Tier,
      state: EffectState,
      action: GateAction,
      // As on a listed row: tier 2 and 3 may leave it null or absent (absent reads as null).
      idempotencyKey: z.string().nullable().default(null),
    }),
  ),
  // protocol.md describes a refusal only for `refuse` and gives `gate_read_failed` no tier or ids: a
  // pass that omits `refusal`, and a read failure that omits `tier`/`effectIds`, read as null and [].
  refusal: z
    .object({
      code: z.enum(['effect_needs_attention', 'gate_read_failed']),
      tier: Tier.nullish().transform((tier) => tier ?? null),
      effectIds: z.array(z.string()).default([]),
      message: z.string(),
    })
    .nullish()
    .transform((refusal) => refusal ?? null),
});

/** Evidence the engine gathered from the target for one unresolved or unretained row. */
export const ReconcileEvidence = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('receipt_found'), result: RecordedResult }),
  z.object({ kind: z.literal('receipt_absent') }),
  z.object({ kind: z.literal('retried_with_key'), result: RecordedResult }),
]);
export const ReconcileRequest = z.object({ effectId: z.string().min(1), evidence: ReconcileEvidence });
export const ReconcileResult = z.object({
  effectId: z.string().min(1),
  state: EffectState,
  /** After proven absence the engine must execute once (tier 1: under this key) and settle the same row. */
  execute: z.object({ idempotencyKey: z.string().min(1).nullable().default(null) }).nullable().default(null),
});

export const ResolveRequest = z.object({
  effectId: z.string().min(1),
  decision: z.enum(['accepted', 'discarded']),
  actor: z.string().min(1),
});
export const RunTerminalRequest = z.object({ runId: z.string().min(1) });
export const SweepCount = z.object({ deleted: z.number().int().min(0) });

/** The caller's transcript for the §8 join: every historical exchange, compacted ones included. */
export const TranscriptTurn = z.object({
  turn: z.number().int().min(0),
  status: z.enum(['completed', 'errored', 'aborted', 'missing_terminal', 'orphan']),
  compacted: z.boolean(),
  calls: z.array(z.object({ callId: z.string(), toolName: z.string() })),
});
export const SessionReadRequest = z.object({
  sessionId: z.string().min(1),
  transcript: z.array(TranscriptTurn),
});
export const DisclosureReason = z.enum(['unresolved', 'turn_incomplete', 'unattributable', 'legacy']);
export const CapturedRow = z.object({
  effectId: z.string().min(1),
  sessionId: z.string().min(1),
  turn: z.number().int().min(0),
  slot: z.number().int(),
  toolId: z.string().min(1),
  state: z.literal('committed'),
});
/** One disclosure names its effect by row id, or by address (scope, slot, toolId) and state, or both (they must agree). */
export const Disclosure = z
  .object({
    effectId: z.string().min(1).optional(),
    scope: SessionScope.optional(),
    slot: z.number().int().optional(),
    toolId: z.string().min(1).optional(),
    state: EffectState.optional(),
    reason: DisclosureReason,
  })
  .refine((d) => d.effectId !== undefined || (d.scope !== undefined && d.slot !== undefined && d.toolId !== undefined && d.state !== undefined), {
    message: 'a disclosure names its effect by effectId, or by scope, slot, toolId and state',
  });
export const SessionReadResult = z.object({
  effects: z.array(EffectRow),
  disclosures: z.array(Disclosure),
  captured: z.array(CapturedRow),
});
export const SessionSweepRequest = z.object({
  sessionId: z.string().min(1),
  captured: z.array(CapturedRow),
  /** Probe: the implementation opens a transaction itself and sweeps inside it; it must refuse. */
  insideOuterTransaction: z.boolean().optional(),
});
export const Checkpoint = z.enum(['complete', 'deferred']);
export const SessionSweepResult = z.object({ deleted: z.number().int().min(0), checkpoint: Checkpoint });

export const Fault = z.enum([
  'settle_write_fails',
  'gate_read_fails',
  'session_read_fails',
  'checkpoint_blocked_by_reader',
  'sweep_fails_after_first_chunk',
]);
export const FaultRequest = z.object({ fault: Fault, enabled: z.boolean() });

/** A legacy row planted directly, as an older writer would have left it. */
export const SeedRow = EffectRow.pick({ scope: true, slot: true, toolId: true, tier: true, state: true, argsDigest: true }).extend({
  callId: z.string().min(1),
  resultJson: z.string().nullable(),
});
export const SeedRequest = z.object({ rows: z.array(SeedRow) });

export type Json = unknown;
export type Tier = z.infer<typeof Tier>;
export type TierMode = z.infer<typeof TierMode>;
export type EffectCorrelation = z.infer<typeof EffectCorrelation>;
export type EffectScope = z.infer<typeof EffectScope>;
export type RunScope = z.infer<typeof RunScope>;
export type AttemptAudit = z.infer<typeof AttemptAudit>;
export type RecordedResult = z.infer<typeof RecordedResult>;
export type EffectState = z.infer<typeof EffectState>;
export type EffectRow = z.infer<typeof EffectRow>;
export type RefusalCode = z.infer<typeof RefusalCode>;
export type PrepareRequest = z.infer<typeof PrepareRequest>;
export type PrepareVerdict = z.infer<typeof PrepareVerdict>;
export type SettleRequest = z.infer<typeof SettleRequest>;
export type SettleResult = z.infer<typeof SettleResult>;
export type GateRequest = z.infer<typeof GateRequest>;
export type GateDecision = z.infer<typeof GateDecision>;
export type ReconcileRequest = z.infer<typeof ReconcileRequest>;
export type ReconcileResult = z.infer<typeof ReconcileResult>;
export type ResolveRequest = z.infer<typeof ResolveRequest>;
export type TranscriptTurn = z.infer<typeof TranscriptTurn>;
export type SessionReadRequest = z.infer<typeof SessionReadRequest>;
export type SessionReadResult = z.infer<typeof SessionReadResult>;
export type Disclosure = z.infer<typeof Disclosure>;
export type DisclosureReason = z.infer<typeof DisclosureReason>;
export type CapturedRow = z.infer<typeof CapturedRow>;
export type SessionSweepRequest = z.infer<typeof SessionSweepRequest>;
export type SessionSweepResult = z.infer<typeof SessionSweepResult>;
export type Fault = z.infer<typeof Fault>;
export type SeedRow = z.infer<typeof SeedRow>;
