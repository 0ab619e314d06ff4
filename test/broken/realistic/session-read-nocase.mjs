// The session read selects the session's rows with `session_id = ? COLLATE NOCASE` ("ids are case-insensitive in the
// UI"): a read of s1 lists, discloses and captures the rows of S1 too, and its sweep deletes them (§8 reads, §9 sweeps
// the session's own rows: a scope matches exactly).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'session-read-nocase', options, (j, ctx) => ({
    sessionRead(p) {
      const ids = ctx.db().prepare(`SELECT DISTINCT session_id FROM run_effects WHERE scope_kind = 'session' AND session_id = ? COLLATE NOCASE`).all(p.sessionId).map((r) => r.session_id);
      const reads = [p.sessionId, ...ids.filter((id) => id !== p.sessionId)].map((sessionId) => j.sessionRead({ ...p, sessionId }));
      return { effects: reads.flatMap((r) => r.effects), disclosures: reads.flatMap((r) => r.disclosures), captured: reads.flatMap((r) => r.captured) };
    },
  }));
}
