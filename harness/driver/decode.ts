// Decodes one line from an implementation into a validated message, or a ProtocolViolation naming op and field.
import type { z } from 'zod';
import { ProtocolViolation } from '../../shared/errors.js';
import { ImplementationMessage, Operations } from '../../shared/protocol/schemas.js';
import type { JournalErrorCode, OperationName } from '../../shared/protocol/schemas.js';

/** The request the harness is waiting on; `blocked` while the implementation sits at a crash point. */
export interface PendingRequest {
  readonly op: OperationName;
  readonly id: number;
  readonly blocked: boolean;
}

export type Decoded =
  | { kind: 'result'; id: number; result: unknown }
  | { kind: 'error'; id: number; code: JournalErrorCode; message: string }
  | { kind: 'crashpoint'; point: string; seq: number };

/** Validates one line against the envelope, the pending request and that op's result schema. */
export function decodeLine(line: string, pending: PendingRequest | null): Decoded | ProtocolViolation {
  const op = pending?.op ?? null;
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (err) {
    return violation(op, null, line, 'the line is not JSON', err);
  }
  const envelope = ImplementationMessage.safeParse(json);
  if (!envelope.success) return fromIssues(op, null, line, envelope.error);
  const msg = envelope.data;
  if (pending === null) {
    return violation(op, msg.type === 'crashpoint' ? 'type' : 'id', line, `a ${msg.type} message arrived while no request was pending`);
  }
  if (pending.blocked) {
    return violation(op, 'type', line, `a ${msg.type} message arrived while the implementation should be blocked at a crash point awaiting resume`);
  }
  if (msg.type === 'crashpoint') return { kind: 'crashpoint', point: msg.point, seq: msg.seq };
  if (msg.id !== pending.id) {
    return violation(op, 'id', line, `response id ${msg.id} does not match the pending request id ${pending.id}`);
  }
  if (!msg.ok) return { kind: 'error', id: msg.id, code: msg.error.code, message: msg.error.message };
  const result = Operations[pending.op].result.safeParse(msg.result);
  if (!result.success) return fromIssues(op, 'result', line, result.error);
  return { kind: 'result', id: msg.id, result: result.data };
}

/** Renders a zod issue path as `result.effects[0].state`. */
export function formatPath(prefix: string | null, path: readonly PropertyKey[]): string | null {
  let out = prefix ?? '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out === '' ? null : out;
}

function fromIssues(op: OperationName | null, prefix: string | null, line: string, error: z.ZodError): ProtocolViolation {
  const issue = error.issues[0];
  const field = formatPath(prefix, issue?.path ?? []);
  return violation(op, field, line, issue?.message ?? 'invalid message', error);
}

function violation(op: string | null, field: string | null, line: string, detail: string, cause?: unknown): ProtocolViolation {
  const where = `${op ?? '(no request)'}${field === null ? '' : ` ${field}`}`;
  const shown = line.length > 200 ? `${line.slice(0, 200)}…` : line;
  const message = `protocol violation in ${where}: ${detail} — line: ${shown}`;
  return new ProtocolViolation({ op, field, line, message }, cause === undefined ? undefined : { cause });
}
