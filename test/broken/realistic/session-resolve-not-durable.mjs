// An operator resolution of a session row answered from memory: the resolve call returns the row with its decision,
// but only run rows are written back (the author's resolve command was built for runs), so after a restart the session
// row is unresolved again and every resume keeps telling the user to check a target the operator already checked.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'session-resolve-not-durable', options, (j) => ({
    resolve(p) {
      const row = j.listEffects().effects.find((r) => r.effectId === p.effectId);
      if (row === undefined || row.scope.kind !== 'session' || row.state === 'committed' || row.resolution !== null) return j.resolve(p);
      return { ...row, resolution: { decision: p.decision, actor: p.actor, at: new Date().toISOString() } };
    },
  }));
}
