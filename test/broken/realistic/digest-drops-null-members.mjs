// A top-level null member hashes like an absent one: a call that passes null replays one that left the member out.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith({ 'reference-impl/digest.js': new URL('./own/digest-drops-null-members.mjs', import.meta.url).href });

export function createJournal(options) {
  return journal(createReferenceJournal, 'digest-drops-null-members', options);
}
