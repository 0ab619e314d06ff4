// A redactor that ends URL userinfo at the first '@': the rest of a password holding an '@' reaches the digest.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith({ 'reference-impl/redact.js': new URL('./own/redact-userinfo-first-at.mjs', import.meta.url).href });

export function createJournal(options) {
  return journal(createReferenceJournal, 'userinfo-through-first-at', options);
}
