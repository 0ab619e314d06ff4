// prepare looks the identity up in a read of its own and only then takes the write lock to insert, and the identity
// index is a plain one (rows from older writers broke CREATE UNIQUE INDEX on upgrade): two drivers preparing one
// identity at once both find nothing, both insert, and both dispatch (§2: the UNIQUE identity makes one of them lose).
import { journal, referenceWith } from './journal-base.mjs';

const own = (file) => new URL(`./own/${file}`, import.meta.url).href;
const createReferenceJournal = await referenceWith({
  'reference-impl/prepare.js': own('prepare-check-first.mjs'),
  'reference-impl/schema.js': own('schema-lookup-index.mjs'),
});

export function createJournal(options) {
  return journal(createReferenceJournal, 'prepare-check-then-insert', options);
}
