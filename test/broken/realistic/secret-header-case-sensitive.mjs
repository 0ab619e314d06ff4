// A redactor that compares credential key names as written: the lower-case "authorization" of its tests is masked, the
// Authorization and AUTHORIZATION headers HTTP clients send reach the digest, which becomes a credential equality oracle (§11, §14).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith({ 'reference-impl/redact.js': new URL('./own/redact-case-sensitive-keys.mjs', import.meta.url).href });

export function createJournal(options) {
  return journal(createReferenceJournal, 'secret-header-case-sensitive', options);
}
