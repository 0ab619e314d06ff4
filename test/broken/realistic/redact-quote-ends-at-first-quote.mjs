// A redactor that ends a quoted secret value at its first quote, ignoring the backslash before it: the rest of a
// password holding an escaped quote reaches the digest, so a credential-only change refuses the replay.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith({ 'reference-impl/redact.js': new URL('./own/redact-quote-ends-at-first-quote.mjs', import.meta.url).href });

export function createJournal(options) {
  return journal(createReferenceJournal, 'redact-quote-ends-at-first-quote', options);
}
