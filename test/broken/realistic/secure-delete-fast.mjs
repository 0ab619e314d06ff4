// secure_delete = FAST instead of ON: a deleted row's b-tree cell is zeroed, but a large value's overflow pages go to the
// freelist with their bytes intact, so a big result survives its sweep and checkpoint (§11).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith({ 'reference-impl/sqlite.js': new URL('./own/sqlite-fast-delete.mjs', import.meta.url).href });

export function createJournal(options) {
  return journal(createReferenceJournal, 'secure-delete-fast', options);
}
