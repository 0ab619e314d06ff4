// prepare looks the identity up under the write lock in a transaction of its own, commits, and only then inserts in a
// second transaction; the identity index is a plain one (rows from older writers broke CREATE UNIQUE INDEX on
// upgrade). A rival held at prepare.before-commit cannot get in (the lookup waits for the lock), so the forced
// interleaving passes; two drivers racing for real lose when one looks up between the other's lookup and its insert
// (§2: the UNIQUE identity makes one of them lose). From red team G's Python journal.
import { journal, referenceWith } from './journal-base.mjs';

const own = (file) => new URL(`./own/${file}`, import.meta.url).href;
const createReferenceJournal = await referenceWith({
  'reference-impl/prepare.js': own('prepare-check-locked-first.mjs'),
  'reference-impl/schema.js': own('schema-lookup-index.mjs'),
});

export function createJournal(options) {
  return journal(createReferenceJournal, 'prepare-check-locked-then-insert', options);
}
