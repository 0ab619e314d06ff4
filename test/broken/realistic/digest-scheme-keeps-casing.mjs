// A masked Bearer/Basic/Token scheme keeps the caller's casing: calls differing only in the credential and its casing refuse.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith({ 'reference-impl/digest.js': new URL('./own/digest-scheme-keeps-casing.mjs', import.meta.url).href });

export function createJournal(options) {
  return journal(createReferenceJournal, 'digest-scheme-keeps-casing', options);
}
