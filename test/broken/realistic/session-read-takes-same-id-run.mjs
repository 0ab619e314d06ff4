// A session read that looks rows up by the bare id: every row whose run id or session id equals the session's is read
// and disclosed, so a run that happens to share the session's id shows up in the session's notice (§2: the correlation
// is a discriminated union; §8: a session discloses its own rows).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'session-read-takes-same-id-run', options, (j) => ({
    sessionRead(p) {
      const out = j.sessionRead(p);
      const runRows = j.listEffects().effects.filter((r) => r.scope.kind === 'run' && r.scope.runId === p.sessionId);
      const disclosed = runRows.map((r) => ({ effectId: r.effectId, reason: r.state === 'committed' ? 'turn_incomplete' : 'unresolved' }));
      return { ...out, effects: [...out.effects, ...runRows], disclosures: [...out.disclosures, ...disclosed] };
    },
  }));
}
