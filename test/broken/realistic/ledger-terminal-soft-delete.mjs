// Written from scratch (own/ledger-journal.mjs): the terminal sweep marks a finished run's committed rows swept
// and hides them, keeping their results in the file: a row "goes" logically, its result bytes never do (§9, §11).
import { ledgerJournal } from './own/ledger-journal.mjs';

export function createJournal() {
  return ledgerJournal('ledger-terminal-soft-delete', { softDelete: true });
}
