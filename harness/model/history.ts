// The history a trial records and the model checks: every journal operation, kill, restart and world event, in order.
import type { OperationName } from '../../shared/protocol/schemas.js';

/** How an operation ended, as the harness saw it. */
export type OpAnswer =
  | { readonly kind: 'result'; readonly result: unknown }
  | { readonly kind: 'error'; readonly code: string; readonly message: string }
  /** The driver was SIGKILLed while this operation was in flight (`at`: point:… or syscall:…). */
  | { readonly kind: 'killed'; readonly at: string };

/** What the engine planted where: the model decides which hits in a byte scan are violations. */
export type CanaryRole = 'arg' | 'session-result' | 'run-result' | 'legacy-result';

export type HistoryEvent =
  | { readonly kind: 'driver'; readonly driver: string; readonly journal: string; readonly restart: boolean; readonly clock: string | null }
  | { readonly kind: 'op'; readonly driver: string; readonly sent: number; readonly answered: number; readonly op: OperationName; readonly params: unknown; readonly answer: OpAnswer }
  /** A SIGKILL of a driver's group; `at` is boundary:…, point:… or syscall:…. */
  | { readonly kind: 'kill'; readonly driver: string; readonly at: string; readonly signal: string | null }
  | { readonly kind: 'close'; readonly driver: string }
  | { readonly kind: 'dispatch'; readonly target: string; readonly tier: number; readonly logicalKey: string; readonly idempotencyKey: string | null; readonly applied: boolean; readonly deduplicated: boolean }
  | { readonly kind: 'lookup'; readonly target: string; readonly idempotencyKey: string; readonly found: boolean }
  /** The engine published a session notice naming these effect ids. */
  | { readonly kind: 'notice'; readonly sessionId: string; readonly effectIds: readonly string[] }
  /** A canary the engine planted; `value` never leaves the harness's memory (reports show the id). */
  | { readonly kind: 'canary'; readonly id: number; readonly role: CanaryRole; readonly value: string }
  /** A whole-file byte scan of the journal's directory: which canary ids were found, and in which files. */
  | { readonly kind: 'scan'; readonly hits: ReadonlyArray<{ readonly id: number; readonly file: string }>; readonly files: number; readonly bytes: number; readonly liveDrivers: number }
  /** Engine bookkeeping that explains the operations around it (shown in counterexamples). */
  | { readonly kind: 'note'; readonly text: string };

export type HistoryEventKind = HistoryEvent['kind'];
