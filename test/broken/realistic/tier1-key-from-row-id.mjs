// The tier-1 idempotency key is the row's own id ("unique by construction, and the id the operator already sees in
// every listing"): SQLite hands a deleted row's id out again once a terminal sweep has removed the newest rows, so a
// later run's tier-1 effect carries a key the target already honoured, and the target answers it as a duplicate (§2).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'tier1-key-from-row-id', options, (j, ctx) => ({
    prepare(p) {
      const verdict = j.prepare(p);
      if (verdict.verdict !== 'proceed' || p.tier !== 1) return verdict;
      const key = `idk-${verdict.effectId}`;
      ctx.db().prepare('UPDATE run_effects SET idempotency_key = ? WHERE id = ?').run(key, Number(verdict.effectId));
      return { ...verdict, idempotencyKey: key };
    },
  }));
}
