// The KXM idempotency key is derived from the step ("a retried step must reuse its key, whichever assignment runs it"):
// run, step, slot and tool, the assignment left out. Two assignments of one step that call the same tool get one key,
// and a keyed target deduplicates the second write into the first (kxm-effects-and-recovery §Effect declaration:
// idempotencyKey "assignment"; s8e: "a malformed key can deduplicate distinct intended writes").
import { createHash } from 'node:crypto';
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'kxm-key-per-step', options, (j, ctx) => ({
    'kxm.declare'(p) {
      const v = j['kxm.declare'](p);
      if (v.verdict !== 'recorded') return v;
      const key = `kxm1-${createHash('sha256').update(JSON.stringify(['kxm-v1', p.runId, p.stepId, p.slot, p.toolId])).digest('hex').slice(0, 32)}`;
      ctx.db().prepare('UPDATE kxm_effects SET idempotency_key = ? WHERE id = ?').run(key, Number(v.effect.effectId));
      return { ...v, effect: { ...v.effect, idempotencyKey: key } };
    },
  }));
}
