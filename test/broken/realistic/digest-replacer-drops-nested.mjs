// A digest that hashes JSON.stringify(projection, sortedTopLevelKeys): nested members missing from that list drop out of the hash.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith({ 'reference-impl/digest.js': new URL('./own/digest-replacer.mjs', import.meta.url).href });

export function createJournal(options) {
  return journal(createReferenceJournal, 'digest-replacer-drops-nested', options);
}
