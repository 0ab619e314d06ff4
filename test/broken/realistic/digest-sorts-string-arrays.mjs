// Arrays of strings are sorted before hashing: a call with its tags or argv in another order replays the first.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith({ 'reference-impl/digest.js': new URL('./own/digest-sorts-string-arrays.mjs', import.meta.url).href });

export function createJournal(options) {
  return journal(createReferenceJournal, 'digest-sorts-string-arrays', options);
}
