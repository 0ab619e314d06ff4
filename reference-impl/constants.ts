// Fixed names and numbers of the reference journal: identity, announced crash points, tuning.
import type { Fault } from '../shared/protocol/schemas.js';

export const JOURNAL_NAME = 'ejc-reference-journal';
export const JOURNAL_VERSION = '0.1.0';
export const DB_FILE_NAME = 'effects.db';

/** Every internal point the contract names; all are announced and all are reached by some operation. */
export const CRASH_POINTS = [
  'prepare.before-commit',
  'prepare.after-commit',
  'settle.before-commit',
  'settle.after-commit',
  'run-sweep.before-commit',
  'session-sweep.before-commit',
  'session-sweep.between-chunks',
  'session-sweep.after-commit',
  'checkpoint.before',
  'kxm.declare.after-commit',
  'kxm.dispatch.after-commit',
  'kxm.complete.before-commit',
] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

export const ALL_FAULTS: readonly Fault[] = [
  'settle_write_fails',
  'gate_read_fails',
  'session_read_fails',
  'checkpoint_blocked_by_reader',
  'sweep_fails_after_first_chunk',
];

/** How long one BEGIN IMMEDIATE waits inside SQLite for the write lock before we see SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 2_000;
/** Bounded retries on SQLITE_BUSY on top of busy_timeout, with a short sleep between them. */
export const BUSY_RETRIES = 20;
export const BUSY_RETRY_SLEEP_MS = 25;
/** A checkpoint is best-effort: a busy reader defers it rather than stalling the caller for busy_timeout. */
export const CHECKPOINT_BUSY_TIMEOUT_MS = 100;

/** Captured rows per session-sweep chunk (announced in hello): small, so every multi-chunk path runs on a handful of rows. */
export const DEFAULT_SWEEP_CHUNK = 2;
export const DIGEST_VERSION = 'v5:';
export const LEGACY_CALL_IDS: ReadonlySet<string> = new Set(['legacy:session', 'legacy:home', 'legacy:agent-run']);
