// Reconciliation that records the verdict and not the evidence: a tier-1 row retried under its key is marked committed,
// but the retry's result is not kept ("the target deduplicates, asking it again is the replay"). The resolved unknown
// can never be replayed from the journal; every later resume re-dispatches it (s8e §Exactly-once qualification; §4).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 's8e-reconcile-keeps-no-result', options, (j, ctx) => ({
    reconcile(p) {
      const r = j.reconcile(p);
      if (p.evidence.kind === 'retried_with_key' && r.state === 'committed') ctx.db().prepare('UPDATE run_effects SET result_json = NULL WHERE id = ?').run(Number(p.effectId));
      return r;
    },
  }));
}
