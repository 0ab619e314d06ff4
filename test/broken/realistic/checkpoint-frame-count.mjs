// The checkpoint outcome is read from the frame counts (log === checkpointed) instead of busy: with a reader pinned at
// the WAL's end it says complete while the WAL still holds the freed bytes (§11: complete means erased).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith({ 'reference-impl/sqlite.js': new URL('./own/checkpoint-frame-count.mjs', import.meta.url).href });

export function createJournal(options) {
  return journal(createReferenceJournal, 'checkpoint-frame-count', options);
}
