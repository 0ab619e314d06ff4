// The public shapes of a running driver process, as the engine sees them.
import type { ProtocolViolation } from '../../shared/errors.js';
import type { HelloResult, JournalErrorCode, OperationName, OpParams, OpResult } from '../../shared/protocol/schemas.js';

/** How a driver process ended, as observed when it was reaped, with the proof that its whole tree ended too. */
export type ExitInfo = { signal: NodeJS.Signals | null; exitCode: number | null; killedByHarness: boolean; tree: TreeEvidence };

/** One process as evidence: where it ran and what it held. */
export interface ProcessEvidence {
  readonly pid: number;
  readonly session: number;
  readonly group: number;
  readonly cmdline: string;
  /** Paths under the journal's directories it held (open descriptor, working directory or mapping). */
  readonly holds: string[];
}

/** What ending a driver's process tree found. */
export interface TreeEvidence {
  /** How many of the driver's processes the harness killed (the leader included when the harness killed it). */
  readonly processes: number;
  /** Killed processes that had left the driver's process group (found by its environment mark or parentage). */
  readonly escaped: ProcessEvidence[];
  /** Processes of the driver still running, or others holding its journal's files, once the kill should have ended them. */
  readonly survivors: ProcessEvidence[];
}

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
  /** Added to the inherited environment; an undefined value removes an inherited variable. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Told of every protocol line in both directions, with its sequence number, as it is sent or read (the wire transcript). */
  onWire?: (line: { readonly direction: 'send' | 'recv'; readonly seq: number; readonly line: string }) => void;
  /** Sees every stdout and stderr chunk the driver writes, as it arrives (e.g. to find secrets the journal echoes). */
  onOutput?: (stream: 'stdout' | 'stderr', chunk: Buffer | string) => void;
  /** Largest stderr log kept in `stderrFile` (bytes); the rest is counted and dropped. */
  stderrFileLimit?: number;
}

export interface DriverHandle {
  readonly label: string;
  readonly pid: number;
  readonly hello: HelloResult;
  /** One request at a time. Resolves with the outcome; throws ProtocolViolation (driver already killed), EjcError('operation_timeout', names op + ms; driver already killed), EjcError('driver_exited', with exit code/signal). */
  call<O extends OperationName>(op: O, params: OpParams<O>, opts?: { timeoutMs?: number }): Promise<CallOutcome<O>>;
  /** SIGKILL the driver's whole process tree at once, wait until it is gone, prove it, report what was observed. Idempotent. */
  kill(): Promise<ExitInfo>;
  /** Graceful: end stdin, wait (bounded) for exit, else kill. */
  close(): Promise<ExitInfo>;
  readonly exited: Promise<ExitInfo>;
  /** Sequence number of the last protocol message (either direction). */
  readonly seq: number;
  stderrTail(lines?: number): string[];
  readonly violations: ProtocolViolation[];
  /** Gives the driver another name, its stderr log (when it has one) moved to `stderrFile`. */
  rename(label: string, stderrFile?: string): void;
  /** The pids of the driver's live processes now (one /proc scan; empty once it is gone or where /proc cannot be read). */
  livePids(): number[];
}
