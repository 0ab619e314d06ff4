// A scenario's setup prepares identities no row holds: any verdict but proceed is the journal's failure, not the harness's.
import { EjcError } from '../../shared/errors.js';
import type { PrepareVerdict } from '../../shared/protocol/schemas.js';

/** Thrown by a setup whose fresh prepare did not proceed; the trial records it as a conclusive failure (§2, §4). */
export class SetupNotProceeded extends EjcError {
  readonly assertion: string;
  readonly verdict: string;
  constructor(what: string, verdict: PrepareVerdict) {
    const word = verdict.verdict === 'refuse' ? `refuse (${verdict.code})` : verdict.verdict;
    super('journal_error', `the prepare of ${what} did not proceed (${word})`);
    this.name = 'SetupNotProceeded';
    this.assertion = `the prepare of ${what}, an identity no row holds, proceeds (effect-journal §2, §4)`;
    this.verdict = word;
  }
}

/** The effect id of a setup prepare that proceeded; otherwise throws SetupNotProceeded. */
export function proceeded(verdict: PrepareVerdict, what: string): string {
  if (verdict.verdict !== 'proceed') throw new SetupNotProceeded(what, verdict);
  return verdict.effectId;
}
