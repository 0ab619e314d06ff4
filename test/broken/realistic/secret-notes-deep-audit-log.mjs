// Written from scratch (own/secret-notes-journal.mjs): every prepare is appended to an audit log in the journal's own
// state directory (four levels below the temporary directory, outside any journal directory), its declared secrets
// dropped; a Bearer token, URL userinfo or an access_token value stays. The directories are made once, so every later
// trial only appends to an old file in old directories (§11).
import { notesJournal } from './own/secret-notes-journal.mjs';

export function createJournal() {
  return notesJournal('secret-notes-deep-audit-log', { deepAuditLog: true });
}
