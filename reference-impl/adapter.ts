// The module the harness's host driver loads: `--impl-option tierMode=conservative|reconciling`.
import type { JournalFactory } from '../harness/journal-interface.js';
import { JournalError } from '../harness/journal-interface.js';
import type { TierMode } from '../shared/protocol/schemas.js';
// journal.js, not index.js: the public entry re-exports helpers a driver never uses, and every module a driver loads
// costs start-up time.
import { ReferenceJournal } from './journal.js';

/** Builds the reference journal from the host's free-form options (tierMode defaults to reconciling). */
export const createJournal: JournalFactory = (options) => {
  const raw = options.options['tierMode'] ?? 'reconciling';
  if (raw !== 'conservative' && raw !== 'reconciling') {
    throw new JournalError('unsupported', `tierMode must be 'conservative' or 'reconciling', got ${JSON.stringify(raw)}`);
  }
  return new ReferenceJournal({ crashpoint: options.crashpoint, options: options.options, tierMode: raw satisfies TierMode });
};

export default createJournal;
