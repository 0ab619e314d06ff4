// The host driver's protocol codec: request envelopes and params checked without zod, so a driver starts at the cost of its journal.
// Responses are validated where they arrive, on the harness side (decode.ts); test/harness/host-codec.test.ts
// keeps every shape, op name and error code here equal to harness/protocol/schemas.ts.
import { checkShape, type Shape, type ShapeIssue } from './host-shape.js';

export const HOST_PROTOCOL_VERSION = 1;

/** The stable error codes a journal may answer with (JournalErrorCode). */
export const HOST_ERROR_CODES: readonly string[] = [
  'settle_no_row', 'settle_already_settled', 'settle_write_failed', 'reconcile_invalid', 'resolve_invalid', 'outer_transaction',
  'sweep_failed', 'session_read_failed', 'seed_unsupported', 'not_open', 'unsupported', 'internal', 'kxm_invalid', 'kxm_evidence_missing',
];

const str = (min?: number): Shape => (min === undefined ? { t: 'string' } : { t: 'string', min });
const id: Shape = str(1);
const int = (min?: number): Shape => (min === undefined ? { t: 'int' } : { t: 'int', min });
const bool: Shape = { t: 'boolean' };
const json: Shape = { t: 'json' };
const oneOf = (...values: Array<string | number>): Shape => ({ t: 'enum', values });
const lit = (value: string): Shape => oneOf(value);
const arr = (item: Shape): Shape => ({ t: 'array', item });
const rec = (value: Shape): Shape => ({ t: 'record', value });
const nullable = (inner: Shape): Shape => ({ t: 'nullable', inner });
const obj = (props: Record<string, Shape>, optional: string[] = []): Shape => ({ t: 'object', props, optional });
const union = (key: string, options: Record<string, Shape>): Shape => ({ t: 'union', key, options });
const empty = obj({});

const tier = oneOf(1, 2, 3);
const runScope = obj({ kind: lit('run'), runId: id, nodeId: id });
const sessionScope = obj({ kind: lit('session'), sessionId: id, turn: int(0) });
const recorded = obj({ modelValue: str(), truncated: bool, summary: str(), outputMappingResult: json });
const captured = obj({ effectId: id, sessionId: id, turn: int(0), slot: int(), toolId: id, state: lit('committed') });
const kxmClass = oneOf('read-only', 'workspace-mutation', 'external-idempotent', 'receipt-queryable', 'unknown', 'external-non-idempotent');

/** Every operation's params shape, keyed by op name. */
export const HOST_PARAMS: Readonly<Record<string, Shape>> = {
  hello: empty,
  open: obj({ dir: id, armedCrashPoints: arr(str()) }),
  close: empty,
  prepare: obj(
    {
      correlation: union('kind', {
        run: obj({ kind: lit('run'), runId: id, nodeId: id, attempt: int(1) }),
        session: sessionScope,
      }),
      slot: int(),
      toolId: id,
      tier,
      args: rec(json),
      secretArgKeys: arr(str()),
      outputMappingConfig: json,
      audit: obj({ providerAttempt: int(0), callId: id, ownerId: id, generation: int(0) }),
    },
    ['outputMappingConfig'],
  ),
  settle: union('state', {
    committed: obj({ effectId: id, state: lit('committed'), result: nullable(recorded) }),
    ambiguous: obj({ effectId: id, state: lit('ambiguous'), reason: str() }),
  }),
  gate: obj({ scope: runScope, attempt: int(1) }, ['attempt']),
  reconcile: obj({
    effectId: id,
    evidence: union('kind', {
      receipt_found: obj({ kind: lit('receipt_found'), result: recorded }),
      receipt_absent: obj({ kind: lit('receipt_absent') }),
      retried_with_key: obj({ kind: lit('retried_with_key'), result: recorded }),
    }),
  }),
  resolve: obj({ effectId: id, decision: oneOf('accepted', 'discarded'), actor: id }),
  runTerminal: obj({ runId: id }),
  sessionRead: obj({
    sessionId: id,
    transcript: arr(
      obj({
        turn: int(0),
        status: oneOf('completed', 'errored', 'aborted', 'missing_terminal', 'orphan'),
        compacted: bool,
        calls: arr(obj({ callId: str(), toolName: str() })),
      }),
    ),
  }),
  sessionSweep: obj({ sessionId: id, captured: arr(captured), insideOuterTransaction: bool }, ['insideOuterTransaction']),
  checkpoint: empty,
  listEffects: empty,
  files: empty,
  fault: obj({
    fault: oneOf('settle_write_fails', 'gate_read_fails', 'session_read_fails', 'checkpoint_blocked_by_reader', 'sweep_fails_after_first_chunk'),
    enabled: bool,
  }),
  seed: obj({
    rows: arr(
      obj({
        scope: union('kind', { run: runScope, session: sessionScope }),
        slot: int(),
        toolId: id,
        tier,
        state: oneOf('prepared', 'committed', 'ambiguous', 'needs_attention'),
        argsDigest: str(),
        callId: id,
        resultJson: nullable(str()),
      }),
    ),
  }),
  argsProjection: obj({ args: rec(json), secretArgKeys: arr(str()) }),
  'kxm.declare': obj(
    {
      runId: id,
      stepId: id,
      assignmentId: id,
      attemptId: id,
      slot: int(),
      toolId: id,
      declaredClass: kxmClass,
      registry: obj({ revision: id, tools: rec(obj({ class: kxmClass, receiptQuery: nullable(id) })) }),
      lease: obj({ leaseId: id, fencingToken: int(0), expiresAt: int() }),
    },
    ['declaredClass', 'lease'],
  ),
  'kxm.dispatch': obj({ effectId: id, attemptId: id, now: int() }),
  'kxm.complete': obj({ effectId: id, attemptId: id, receiptId: id }),
  'kxm.recover': obj({
    effectId: id,
    now: int(),
    observation: obj(
      {
        process: oneOf('ended', 'alive_same', 'replacement_exists', 'unknown'),
        receipt: union('kind', {
          found: obj({ kind: lit('found'), receiptId: id }),
          absent: obj({ kind: lit('absent') }),
          unavailable: obj({ kind: lit('unavailable') }),
          ambiguous: obj({ kind: lit('ambiguous') }),
          not_queried: obj({ kind: lit('not_queried') }),
        }),
        postcondition: oneOf('verified', 'absent', 'not_comparable'),
      },
      ['postcondition'],
    ),
  }),
  'kxm.resolve': obj({
    effectId: id,
    action: oneOf('mark_completed', 'confirm_absent_retry', 'compensate_retry', 'mark_failed'),
    actor: id,
    reason: str(),
    evidence: obj(
      {
        receiptId: id,
        receiptAuthoritative: bool,
        postconditionVerified: bool,
        negativeQueryAuthoritative: bool,
        compensationReceiptId: id,
        workflowAuthorized: bool,
        newAttemptId: id,
      },
      ['receiptId', 'receiptAuthoritative', 'postconditionVerified', 'negativeQueryAuthoritative', 'compensationReceiptId', 'workflowAuthorized', 'newAttemptId'],
    ),
  }),
  'kxm.cancel': obj({ runId: id, actor: id, reason: str() }),
  'kxm.list': obj({ runId: id }),
};

/** A decoded request line: a request to serve, an answerable bad request, a resume, or a line to ignore (with why). */
export type HostLine =
  | { kind: 'request'; id: number; op: string; params: unknown }
  | { kind: 'invalid'; id: number; field: string; message: string }
  | { kind: 'resume'; seq: number }
  | { kind: 'ignore'; why: string };

/** Decodes one line from the harness. Params are not checked here (see checkParams), so an op this version lacks is answerable. */
export function decodeHostLine(line: string): HostLine {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { kind: 'ignore', why: 'not JSON' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { kind: 'ignore', why: 'not a JSON object' };
  const msg = json as Record<string, unknown>;
  if (msg['type'] === 'resume') {
    return positiveInt(msg['seq']) ? { kind: 'resume', seq: msg['seq'] as number } : { kind: 'ignore', why: 'a resume without a positive integer seq' };
  }
  if (msg['type'] !== 'request') return { kind: 'ignore', why: `type is ${JSON.stringify(msg['type'])}, not "request"` };
  // Without a valid id there is no response the harness could match, so the line can only be ignored.
  if (!positiveInt(msg['id'])) return { kind: 'ignore', why: 'a request without a positive integer id' };
  const id = msg['id'] as number;
  const op = msg['op'];
  if (typeof op !== 'string' || !Object.hasOwn(HOST_PARAMS, op)) {
    return { kind: 'invalid', id, field: 'op', message: `unknown operation ${JSON.stringify(op)} (protocol version ${HOST_PROTOCOL_VERSION} knows ${Object.keys(HOST_PARAMS).join(', ')})` };
  }
  return { kind: 'request', id, op, params: msg['params'] };
}

/** Checks one op's params (absent params mean `{}`); null when they conform. */
export function checkParams(op: string, params: unknown): ShapeIssue | null {
  const shape = HOST_PARAMS[op];
  if (shape === undefined) return { path: 'op', message: `unknown operation ${JSON.stringify(op)}` };
  return checkShape(shape, params ?? {}, 'params');
}

/** True for a code a journal may answer with. */
export function isErrorCode(code: unknown): code is string {
  return typeof code === 'string' && HOST_ERROR_CODES.includes(code);
}

function positiveInt(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}
