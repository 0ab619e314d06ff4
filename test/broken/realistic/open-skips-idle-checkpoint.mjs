// Open checkpoints only when its legacy clear changed a row: after a sweep whose checkpoint a reader deferred, a restart
// with nothing to clear never retries it, so the freed bytes stay in the WAL (§11: later opens retry the checkpoint).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith({ 'reference-impl/maintenance.js': new URL('./own/maintenance-skip-idle.mjs', import.meta.url).href });

export function createJournal(options) {
  return journal(createReferenceJournal, 'open-skips-idle-checkpoint', options);
}
