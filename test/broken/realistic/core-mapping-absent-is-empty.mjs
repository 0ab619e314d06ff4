// `outputMappingConfig ?? {}`: a node whose output mapping was removed (or added as an empty one) in the crash window
// digests the same as before, so the replay answers a workflow that changed (§4: absent and present differ).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith({ 'reference-impl/digest.js': new URL('./own/core-mapping-or-empty.mjs', import.meta.url).href });

export function createJournal(options) {
  return journal(createReferenceJournal, 'core-mapping-absent-is-empty', options);
}
