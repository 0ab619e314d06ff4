// A redactor that ends a credential query value at the first character outside RFC 3986's unreserved set: a
// percent-escaped token (?access_token=Zm9v%2B...%3D, a base64 SAS signature) keeps everything after its first escape in the digest.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith({ 'reference-impl/redact.js': new URL('./own/redact-unreserved-query-values.mjs', import.meta.url).href });

export function createJournal(options) {
  return journal(createReferenceJournal, 'secret-query-value-unreserved', options);
}
