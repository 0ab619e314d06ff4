// The wire protocol's zod schemas: the single source of truth for every message in both directions.
import { z } from 'zod';
import { Checkpoint, EffectRow, JsonObject, Fault, FaultRequest, GateDecision, GateRequest, PROTOCOL_VERSION, PrepareRequest, PrepareVerdict, ReconcileRequest, ReconcileResult, ResolveRequest, RunTerminalRequest, SeedRequest, SessionReadRequest, SessionReadResult, SessionSweepRequest, SessionSweepResult, SettleRequest, SettleResult, SweepCount, TierMode } from './core-schemas.js';
import { KxmCancelRequest, KxmCancelResult, KxmCompleteRequest, KxmDeclareRequest, KxmDeclareVerdict, KxmDispatchRequest, KxmDispatchResult, KxmEffect, KxmListResult, KxmRecoverRequest, KxmRecoverResult, KxmResolveRequest } from './kxm-schemas.js';

export * from './core-schemas.js';
export * from './kxm-schemas.js';

export const Capabilities = z.object({
  crashPoints: z.array(z.string()),
  faults: z.array(Fault),
  tierMode: TierMode,
  sessions: z.boolean(),
  seeding: z.boolean(),
  outerTransactionProbe: z.boolean(),
  /** The kxm.* operations (effect classes, recovery decisions, resolution) work. */
  kxm: z.boolean().optional(),
  /** Operator resolution (`resolve`, §8) works: the contract names it a follow-up, so it is claimed, never assumed. */
  resolution: z.boolean().optional(),
  /** Who decides the §4 pre-flight gate: the journal's `gate` (default), or the harness from `listEffects` rows. */
  gate: z.enum(['journal', 'harness']).optional(),
  /** Captured rows one session-sweep chunk holds; multi-chunk scenarios use more. Unset: discovered by growing the sweep. */
  sweepChunkSize: z.number().int().min(1).optional(),
  /** Rows live in SQLite in WAL mode: the SQLite-only controls (a reader blocking the checkpoint) apply. */
  sqliteWal: z.boolean().optional(),
  /**
   * Names the separate server the journal's durable state lives in (e.g. `postgres at localhost:5432`), when it
   * does: the harness's kill does not reach that server, and the report's claim boundary says so.
   */
  externalState: z.string().min(1).optional(),
  /**
   * The journal answers `argsProjection`: the §11 redacted projection it hashes, as canonical JSON. Optional and never
   * required; with it a digest mismatch shows the journal's projection beside the expected one, first difference marked.
   */
  argsProjection: z.boolean().optional(),
});
/** `argsProjection`: the projection a prepare of these arguments would hash; it writes nothing. */
export const ArgsProjectionRequest = z.object({ args: JsonObject, secretArgKeys: z.array(z.string()) });
export const ArgsProjectionResult = z.object({ canonical: z.string(), digest: z.string() });
export const OpenRequest = z.object({
  dir: z.string().min(1),
  /** Points at which the implementation must announce itself and block for the harness. */
  armedCrashPoints: z.array(z.string()),
});
export const OpenResult = z.object({ files: z.array(z.string()) });

export const HelloResult = z.object({
  name: z.string().min(1),
  version: z.string().min(1),
  protocolVersion: z.literal(PROTOCOL_VERSION),
  capabilities: Capabilities,
});

/** Every operation: its request params and its result. */
export const Operations = {
  hello: { params: z.object({}), result: HelloResult },
  open: { params: OpenRequest, result: OpenResult },
  close: { params: z.object({}), result: z.object({}) },
  prepare: { params: PrepareRequest, result: PrepareVerdict },
  settle: { params: SettleRequest, result: SettleResult },
  gate: { params: GateRequest, result: GateDecision },
  reconcile: { params: ReconcileRequest, result: ReconcileResult },
  resolve: { params: ResolveRequest, result: EffectRow },
  runTerminal: { params: RunTerminalRequest, result: SweepCount },
  sessionRead: { params: SessionReadRequest, result: SessionReadResult },
  sessionSweep: { params: SessionSweepRequest, result: SessionSweepResult },
  checkpoint: { params: z.object({}), result: z.object({ checkpoint: Checkpoint }) },
  listEffects: { params: z.object({}), result: z.object({ effects: z.array(EffectRow) }) },
  files: { params: z.object({}), result: z.object({ files: z.array(z.string()) }) },
  fault: { params: FaultRequest, result: z.object({}) },
  seed: { params: SeedRequest, result: z.object({ effectIds: z.array(z.string()) }) },
  argsProjection: { params: ArgsProjectionRequest, result: ArgsProjectionResult },
  'kxm.declare': { params: KxmDeclareRequest, result: KxmDeclareVerdict },
  'kxm.dispatch': { params: KxmDispatchRequest, result: KxmDispatchResult },
  'kxm.complete': { params: KxmCompleteRequest, result: KxmEffect },
  'kxm.recover': { params: KxmRecoverRequest, result: KxmRecoverResult },
  'kxm.resolve': { params: KxmResolveRequest, result: KxmEffect },
  'kxm.cancel': { params: KxmCancelRequest, result: KxmCancelResult },
  'kxm.list': { params: z.object({ runId: z.string().min(1) }), result: KxmListResult },
} as const;
export type OperationName = keyof typeof Operations;
export const OperationNames = Object.keys(Operations) as OperationName[];

/** Stable error codes a journal may answer with instead of a result. */
export const JournalErrorCode = z.enum([
  'settle_no_row',
  'settle_already_settled',
  'settle_write_failed',
  'reconcile_invalid',
  'resolve_invalid',
  'outer_transaction',
  'sweep_failed',
  'session_read_failed',
  'seed_unsupported',
  'not_open',
  'unsupported',
  'internal',
  'kxm_invalid',
  'kxm_evidence_missing',
]);

export const Request = z.object({
  type: z.literal('request'),
  id: z.number().int().min(1),
  op: z.enum(OperationNames as [OperationName, ...OperationName[]]),
  params: z.unknown(),
});
export const Response = z.discriminatedUnion('ok', [
  z.object({ type: z.literal('response'), id: z.number().int().min(1), ok: z.literal(true), result: z.unknown() }),
  z.object({
    type: z.literal('response'),
    id: z.number().int().min(1),
    ok: z.literal(false),
    error: z.object({ code: JournalErrorCode, message: z.string() }),
  }),
]);
/** Sent unprompted by the implementation at an armed crash point; it then blocks for `resume`. */
export const CrashpointMessage = z.object({ type: z.literal('crashpoint'), point: z.string().min(1), seq: z.number().int().min(1) });
export const ResumeMessage = z.object({ type: z.literal('resume'), seq: z.number().int().min(1) });
// Nested: zod 4 rejects two flat options that share the discriminator value 'response'.
export const ImplementationMessage = z.discriminatedUnion('type', [Response, CrashpointMessage]);

export type Capabilities = z.infer<typeof Capabilities>;
export type HelloResult = z.infer<typeof HelloResult>;
export type JournalErrorCode = z.infer<typeof JournalErrorCode>;
export type OpParams<O extends OperationName> = z.infer<(typeof Operations)[O]['params']>;
export type OpResult<O extends OperationName> = z.infer<(typeof Operations)[O]['result']>;
