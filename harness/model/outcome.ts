// The answer of one model step: consistent (with the journal state it leads to) or a violation naming its clause.
import type { TierMode } from '../../shared/protocol/schemas.js';
import type { CanaryRole } from './history.js';
import type { ClauseId } from './clauses.js';
import type { MState } from './journal-state.js';

/** A contract violation: which clause, what was checked, what the model allowed and what the journal did. */
export interface Failure {
  readonly clause: ClauseId;
  readonly what: string;
  readonly expected: unknown;
  readonly observed: unknown;
}

/** `alternatives`: other journal states the same answer is as consistent with (a count that several choices explain). */
export type Outcome =
  | { readonly ok: true; readonly next: MState; readonly clauses: readonly ClauseId[]; readonly alternatives?: readonly MState[] }
  | { readonly ok: false; readonly failure: Failure };

/** What a step may depend on besides the journal state. */
export interface OpEnv {
  readonly tierMode: TierMode;
  /** Faults switched on in the driver performing the operation. */
  readonly faults: ReadonlySet<string>;
  readonly canaries: ReadonlyArray<{ readonly id: number; readonly role: CanaryRole; readonly value: string }>;
  /** The first observation after a restart: a difference there is lost durability, not a later sweep. */
  readonly afterRestart: boolean;
  /** Other drivers alive when this one opened (a busy connection may defer the open's checkpoint). */
  readonly othersLive: number;
  /** `capabilities.gate: "harness"`: the harness-side gate reads the rows through `listEffects`, so that is the gate's read. */
  readonly gateReadsListing: boolean;
}

export function ok(next: MState, ...clauses: ClauseId[]): Outcome {
  return { ok: true, next, clauses };
}

export function fail(clause: ClauseId, what: string, expected: unknown, observed: unknown): Outcome {
  return { ok: false, failure: { clause, what, expected, observed } };
}

/** Runs checks in order; the first that fails is the outcome, else `then()`. */
export function firstFailure(checks: ReadonlyArray<Outcome | null>, then: () => Outcome): Outcome {
  for (const c of checks) if (c !== null && !c.ok) return c;
  return then();
}
