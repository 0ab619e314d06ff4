// The S8e table as data: what a conformant batch must show, and the checks that compare an entry with it.
import { canonicalJson } from '../../shared/canonical-json.js';
import { isUnresolvedState } from '../../shared/protocol/schemas.js';
import { ACTION_STATES, type ActionState } from './types.js';
import type { S8eEntry } from './entry.js';

/** The captured states of the 22 selected fixture actions. */
export const S8E_STATES: Readonly<Record<ActionState, number>> = {
  confirmed: 6,
  idempotent_replay_confirmed: 3,
  denied: 5,
  conflict: 1,
  failed_before_write: 1,
  cancelled_before_dispatch: 1,
  unknown_pending_readback: 1,
  approval_not_run: 1,
  dry_run: 1,
  breaker_not_run: 2,
  refused: 0,
  readback_unconfirmed: 0,
};

export const S8E_SELECTED = 22;
/** Dispatch attempts of the uninterrupted batch: seven writes plus the unknown's deduplicated replay. */
export const S8E_CLEAN_DISPATCH_ATTEMPTS = 8;
export const S8E_PHYSICAL_WRITES = 7;
/** The confirmed fold: each resource's label after the nine confirmed receipts. */
export const S8E_LABELS: Readonly<Record<string, string>> = { 'issue-1': 'bug', 'issue-2': 'feature', 'issue-3': 'docs', 'issue-4': 'triage', 'issue-9': 'p3', 'issue-11': 'done' };

export interface TableCheck {
  readonly name: string;
  readonly expected: unknown;
  readonly actual: unknown;
  readonly passed: boolean;
}

/** Every comparison of an entry with the S8e table; a crash entry may differ from it only in dispatch attempts. */
export function tableChecks(entry: S8eEntry): TableCheck[] {
  const checks: TableCheck[] = [];
  const eq = (name: string, expected: unknown, actual: unknown): void => {
    checks.push({ name, expected, actual, passed: JSON.stringify(expected) === JSON.stringify(actual) });
  };
  eq('selected actions', S8E_SELECTED, entry.selected);
  for (const s of ACTION_STATES) eq(`state ${s}`, S8E_STATES[s], entry.states[s]);
  eq('capability (authorization) denials', 3, entry.denials.capability);
  eq('stage denials', 2, entry.denials.stage);
  eq('breaker opened after the third authorization denial', 'a20', entry.breaker.openedAfter);
  eq('breaker-open not-runs', 2, entry.breaker.notRun);
  if (entry.mode === 'clean') {
    eq('dispatch attempts', S8E_CLEAN_DISPATCH_ATTEMPTS, entry.counts.dispatchAttempts);
  } else {
    // A kill may add deduplicated retries, or remove the unknown's first dispatch (killed before it): only writes are fixed.
    const ok = entry.counts.dispatchAttempts >= S8E_PHYSICAL_WRITES;
    checks.push({ name: 'dispatch attempts (crash: at least one per physical write)', expected: `>= ${S8E_PHYSICAL_WRITES}`, actual: entry.counts.dispatchAttempts, passed: ok });
    checks.push({ name: 'kills recorded', expected: '>= 1', actual: entry.kills, passed: entry.kills >= 1 });
  }
  eq('physical writes', S8E_PHYSICAL_WRITES, entry.counts.physicalWrites);
  eq('duplicate writes', 0, entry.counts.duplicateWrites);
  eq('restart writes', 0, entry.counts.restartWrites);
  eq('dispatch attempts of the action cancelled before dispatch', 0, entry.counts.cancelledBeforeDispatchAttempts);
  eq('confirmed receipts entering the fold', 9, entry.fold.confirmedReceipts);
  eq('newly confirmed writes in the fold', 6, entry.fold.newWrites);
  eq('idempotent replays in the fold', 3, entry.fold.replays);
  eq('unknowns visible and excluded from the fold', 1, entry.fold.unknownExcluded);
  eq('selector narration in the fold', false, entry.fold.narrationInFold);
  checks.push({ name: 'folded labels', expected: S8E_LABELS, actual: entry.fold.labels, passed: canonicalJson(S8E_LABELS) === canonicalJson(entry.fold.labels) });
  const u = entry.unknown[0];
  eq('the unknown is left unresolved in the journal after cancellation (prepared, ambiguous or needs_attention)', 'unresolved', unresolvedReading(u?.journalState ?? null));
  eq('the unknown is then confirmed through replay/read-back', 'replayed_confirmed', u?.resolvedTo ?? null);
  eq('the unknown row is committed after read-back', 'committed', u?.journalStateAfter ?? null);
  eq('physical writes of the unknown intent', 1, u?.physicalWritesForIntent ?? null);
  if (entry.mode === 'clean') eq('writes caused by the replay/read-back', 0, u?.writesDuringReadback ?? null);
  return checks;
}

/**
 * A journal state as the S8e checks read it: which unresolved state a row shows is the journal's choice (protocol.md:
 * "an unresolved row's state: prepared, ambiguous or needs_attention | free"), so the three read alike.
 */
export function unresolvedReading(state: string | null): string | null {
  return isUnresolvedState(state) ? 'unresolved' : state;
}
