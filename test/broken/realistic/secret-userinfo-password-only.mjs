// A redactor that masks what new URL() calls the password: a token-only userinfo (https://<token>@github.com/org/repo.git,
// the form git remotes and CI clone URLs use) is a "username" and reaches the digest whole.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith({ 'reference-impl/redact.js': new URL('./own/redact-password-only-userinfo.mjs', import.meta.url).href });

export function createJournal(options) {
  return journal(createReferenceJournal, 'secret-userinfo-password-only', options);
}
