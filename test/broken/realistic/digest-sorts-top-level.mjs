// A digest that is "canonical" only at the top level: nested objects hash in whatever key order the model produced.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith({ 'reference-impl/digest.js': new URL('./own/digest-top-level.mjs', import.meta.url).href });

export function createJournal(options) {
  return journal(createReferenceJournal, 'digest-sorts-top-level', options);
}
