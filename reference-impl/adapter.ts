// The module the harness's host driver loads: `--impl-option tierMode=conservative|reconciling`.
import type { JournalFactory } from '../harness/journal-interface.js';
import { JournalError } from '../harness/journal-interface.js';
import type { TierMode } from '../harness/protocol/schemas.js';
import { createReferenceJournal } from './index.js';

/** Builds the reference journal from the host's free-form options (tierMode defaults to reconciling). */
export const createJournal: JournalFactory = (options) => {
  const raw = options.options['tierMode'] ?? 'reconciling';
  if (raw !== 'conservative' && raw !== 'reconciling') {
    throw new JournalError('unsupported', `tierMode must be 'conservative' or 'reconciling', got ${JSON.stringify(raw)}`);
  }
  return createReferenceJournal({ crashpoint: options.crashpoint, options: options.options, tierMode: raw satisfies TierMode });
};

export default createJournal;
