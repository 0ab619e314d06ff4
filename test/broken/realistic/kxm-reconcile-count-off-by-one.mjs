// The reconciliation counter counts the dispatch as its first attempt ("attempt 1 is the call itself"), so every
// blocked effect reports one reconciliation more than recovery ever made: a bounded policy or an operator reading the
// diagnostics stops one attempt short (kxm-effects-and-recovery §blocked_uncertain: "reconciliation attempts").
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'kxm-reconcile-count-off-by-one', options, (j, ctx) => ({
    'kxm.dispatch'(p) {
      const r = j['kxm.dispatch'](p);
      if (r.started) ctx.db().prepare('UPDATE kxm_effects SET reconciliation_attempts = 1 WHERE id = ?').run(Number(p.effectId));
      return r;
    },
  }));
}
