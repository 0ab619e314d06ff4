// Long high-entropy public words (hashes, ids, base64) are masked like credentials: two calls differing in one replay.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith({ 'reference-impl/digest.js': new URL('./own/digest-masks-random-looking.mjs', import.meta.url).href });

export function createJournal(options) {
  return journal(createReferenceJournal, 'digest-masks-random-looking', options);
}
