// Written from scratch (own/secret-notes-journal.mjs): when a call never answers, the row's note tells the operator what
// to check, "POST https://svc:<password>@payments.invalid/charge?access_token=<token> ...: target did not answer", built
// from the request the prepare saw. The committed path writes no note, so a scan after a commit finds nothing (§11).
import { notesJournal } from './own/secret-notes-journal.mjs';

export function createJournal() {
  return notesJournal('secret-notes-attention-note', { attentionNote: true });
}
