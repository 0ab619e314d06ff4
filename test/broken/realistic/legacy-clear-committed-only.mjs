// The open's legacy clear takes "a legacy result" for a committed row's: an unresolved legacy session row (prepared,
// ambiguous, needs_attention) keeps its result in the file for good (§11: the open clears every legacy session result,
// including unresolved, orphan and one-shot rows).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith({ 'reference-impl/maintenance.js': new URL('./own/maintenance-committed-only.mjs', import.meta.url).href });

export function createJournal(options) {
  return journal(createReferenceJournal, 'legacy-clear-committed-only', options);
}
