// The public shapes of a running driver process, as the engine sees them.
import type { ProtocolViolation } from '../errors.js';
import type { HelloResult, JournalErrorCode, OperationName, OpParams, OpResult } from '../protocol/schemas.js';

/** How a driver process ended, as observed when it was reaped. */
export type ExitInfo = { signal: NodeJS.Signals | null; exitCode: number | null; killedByHarness: boolean };

/** What one request produced: a validated result, a journal error code, or an announced crash point. */
export type CallOutcome<O extends OperationName> =
  | { kind: 'result'; result: OpResult<O>; seq: number }
  | { kind: 'error'; code: JournalErrorCode; message: string; seq: number }
  | { kind: 'crashpoint'; point: string; seq: number; resume(): Promise<CallOutcome<O>> };

export interface StartDriverOptions {
  /** Names the driver in errors, kills and reports (e.g. `primary`, `rival`). */
  label: string;
  cwd: string;
  /** Default per-call limit; the crashpoint → resume wait starts a new window. */
  timeoutMs: number;
  /** When given, everything the driver writes to stderr is appended here. */
  stderrFile?: string;
  env?: Record<string, string>;
  /** Told of every protocol line in both directions, with its sequence number, as it is sent or read (the wire transcript). */
  onWire?: (line: { readonly direction: 'send' | 'recv'; readonly seq: number; readonly line: string }) => void;
  /** Sees every stdout and stderr chunk the driver writes, as it arrives (e.g. to find secrets the journal echoes). */
  onOutput?: (stream: 'stdout' | 'stderr', chunk: Buffer | string) => void;
}

export interface DriverHandle {
  readonly label: string;
  readonly pid: number;
  readonly hello: HelloResult;
  /** One request at a time. Resolves with the outcome; throws ProtocolViolation (driver already killed), EjcError('operation_timeout', names op + ms; driver already killed), EjcError('driver_exited', with exit code/signal). */
  call<O extends OperationName>(op: O, params: OpParams<O>, opts?: { timeoutMs?: number }): Promise<CallOutcome<O>>;
  /** SIGKILL the driver's whole process group, wait until it is reaped, report what was observed. Idempotent. */
  kill(): Promise<ExitInfo>;
  /** Graceful: end stdin, wait (bounded) for exit, else kill. */
  close(): Promise<ExitInfo>;
  readonly exited: Promise<ExitInfo>;
  /** Sequence number of the last protocol message (either direction). */
  readonly seq: number;
  stderrTail(lines?: number): string[];
  readonly violations: ProtocolViolation[];
}
