// The S8e states and records the coordinator produces and the report section carries.
import type { EffectState } from '../../shared/protocol/schemas.js';

export const ACTION_STATES = [
  'confirmed',
  'idempotent_replay_confirmed',
  'denied',
  'conflict',
  'failed_before_write',
  'cancelled_before_dispatch',
  'unknown_pending_readback',
  'approval_not_run',
  'dry_run',
  'breaker_not_run',
  // Not in the S8e table: the journal refused, or the read-back did not confirm. A conformant run has none.
  'refused',
  'readback_unconfirmed',
] as const;
export type ActionState = (typeof ACTION_STATES)[number];

/** What became of one selected action, as durably recorded by the coordinator. */
export interface ActionOutcome {
  readonly index: number;
  readonly actionId: string;
  readonly state: ActionState;
  readonly reason: string | null;
  readonly denial: 'capability' | 'stage' | null;
  readonly intentKey: string | null;
  readonly resource: string | null;
  readonly label: string | null;
  /** The receipt read back from the target's ledger; null unless independently confirmed. */
  readonly receipt: string | null;
  /** The row state the journal lists for the intent right after the action (null: no journal row). */
  readonly journalState: EffectState | null;
}

/** How an unknown was resolved after the batch: replay under the stored key, then independent read-back. */
export interface UnknownResolution {
  readonly index: number;
  readonly actionId: string;
  readonly from: 'unknown_pending_readback';
  readonly to: 'replayed_confirmed' | 'unknown_pending_readback';
  readonly journalStateAfter: EffectState | null;
  readonly receipt: string | null;
  /** Physical writes the replay/read-back itself caused (0 when the earlier write is found). */
  readonly writesDuringReadback: number;
  readonly physicalWritesForIntent: number;
}
