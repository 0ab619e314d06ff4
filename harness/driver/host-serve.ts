// The host driver's protocol loop: one request at a time, each mapped onto the adapter's journal method.
// It loads no zod and nothing of the harness: host-codec.ts checks requests, the harness validates every response.
import type { EffectJournal } from '../journal-interface.js';
import type { JournalErrorCode, OperationName } from '../../shared/protocol/schemas.js';
import { checkParams, decodeHostLine, HOST_PROTOCOL_VERSION, isErrorCode } from './host-codec.js';
import { logLine } from './host-io.js';
import type { SyncLineIo } from './host-io.js';

/** Shared between the loop and the crashpoint hook: which points are armed and how many messages passed. */
export interface HostState {
  armed: ReadonlySet<string>;
  seq: number;
  open: boolean;
}

type Answer = { ok: true; result: unknown } | { ok: false; error: { code: JournalErrorCode; message: string } };

/** Serves requests until stdin reaches EOF, then closes an open journal. */
export async function serve(journal: EffectJournal, io: SyncLineIo, state: HostState): Promise<void> {
  for (;;) {
    const line = io.readLine();
    if (line === null) break;
    state.seq++;
    if (line.trim() === '') continue;
    const request = parseRequest(line);
    if (request === null) continue;
    const answer = 'answer' in request ? request.answer : await dispatch(journal, request.op, request.params, state);
    state.seq++;
    io.writeMessage({ type: 'response', id: request.id, ...answer });
  }
  if (state.open) {
    state.open = false;
    try {
      await journal.close();
    } catch (err) {
      logLine(`ejc-host: close at EOF failed: ${describe(err)}`);
    }
  }
}

/** The crashpoint hook handed to the journal: announce an armed point, then block until its resume arrives. */
export function makeCrashpointHook(io: SyncLineIo, state: HostState): (point: string) => void {
  return (point: string): void => {
    if (!state.armed.has(point)) return;
    const seq = ++state.seq;
    io.writeMessage({ type: 'crashpoint', point, seq });
    for (;;) {
      const line = io.readLine();
      // The harness hung up while we were parked here: no resume will ever come.
      if (line === null) process.exit(0);
      state.seq++;
      const resume = decodeHostLine(line);
      if (resume.kind === 'resume' && resume.seq === seq) return;
      logLine(`ejc-host: ignoring a line while blocked at crash point ${point} (seq ${seq}): ${line.slice(0, 200)}`);
    }
  };
}

async function dispatch(journal: EffectJournal, op: OperationName, params: unknown, state: HostState): Promise<Answer> {
  if (op === 'hello') {
    return { ok: true, result: { name: journal.name, version: journal.version, protocolVersion: HOST_PROTOCOL_VERSION, capabilities: journal.capabilities } };
  }
  const issue = checkParams(op, params);
  if (issue !== null) return fail('unsupported', `invalid ${op} request: ${issue.path}: ${issue.message}`);
  const args = params ?? {};
  const method = (journal as unknown as Record<string, unknown>)[op];
  if (typeof method !== 'function') return fail('unsupported', `${op} is not implemented by this adapter`);
  try {
    if (op === 'open') {
      const open = args as { dir: string; armedCrashPoints: string[] };
      state.armed = new Set(open.armedCrashPoints);
      const result: unknown = await journal.open({ dir: open.dir });
      state.open = true;
      return { ok: true, result };
    }
    const result: unknown = await (method as (p: unknown) => unknown).call(journal, args);
    if (op === 'close') state.open = false;
    // close and fault are void in the interface; on the wire they answer an empty object.
    return { ok: true, result: op === 'close' || op === 'fault' ? {} : result };
  } catch (err) {
    return fromThrown(op, err);
  }
}

function fromThrown(op: OperationName, err: unknown): Answer {
  // The adapter may bundle its own copy of JournalError, so match on shape rather than identity.
  if (err instanceof Error && err.name === 'JournalError') {
    const code = (err as { code?: unknown }).code;
    if (isErrorCode(code)) return fail(code as JournalErrorCode, err.message);
    return fail('internal', `${op} threw a JournalError with an unknown code ${JSON.stringify((err as { code?: unknown }).code)}: ${err.message}`);
  }
  logLine(`ejc-host: ${op} threw: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return fail('internal', `${op} threw ${describe(err)}`);
}

type Parsed = { id: number; op: OperationName; params: unknown } | { id: number; answer: Answer };

function parseRequest(line: string): Parsed | null {
  const decoded = decodeHostLine(line);
  if (decoded.kind === 'request') return { id: decoded.id, op: decoded.op as OperationName, params: decoded.params };
  // Answerable: the envelope has an id, so say which field is wrong (usually an op this version lacks).
  if (decoded.kind === 'invalid') return { id: decoded.id, answer: fail('unsupported', `invalid request: ${decoded.field}: ${decoded.message}`) };
  if (decoded.kind === 'resume') {
    logLine(`ejc-host: ignoring a resume while not blocked at a crash point: ${line.slice(0, 200)}`);
  } else {
    logLine(`ejc-host: ignoring an invalid request line (${decoded.why}): ${line.slice(0, 200)}`);
  }
  return null;
}

function fail(code: JournalErrorCode, message: string): Answer {
  return { ok: false, error: { code, message } };
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
