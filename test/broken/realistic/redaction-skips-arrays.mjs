// A redactor that takes arrays for plain data: a credential inside an array (argv flags, header lists, URLs) reaches the digest.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith({ 'reference-impl/redact.js': new URL('./own/redact-arrays-are-data.mjs', import.meta.url).href });

export function createJournal(options) {
  return journal(createReferenceJournal, 'redaction-skips-arrays', options);
}
