// A long-lived process keeps the gate decisions that refused (a node needing attention stays so until someone resolves
// it, and the operator's resolve goes through this process's API) and drops them whenever it settles, reconciles or
// resolves a row itself: another process's resolution of the same row never reaches that cache.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  const refused = new Map();
  return journal(createReferenceJournal, 'gate-refusal-cached-in-process', options, (j) => {
    const forgets = (op) => (p) => {
      refused.clear();
      return j[op](p);
    };
    return {
      gate(p) {
        const key = JSON.stringify([p.scope.runId, p.scope.nodeId]);
        const hit = refused.get(key);
        if (hit) return hit;
        const d = j.gate(p);
        if (d.decision === 'refuse' && d.refusal?.code === 'effect_needs_attention') refused.set(key, d);
        return d;
      },
      settle: forgets('settle'),
      reconcile: forgets('reconcile'),
      resolve: forgets('resolve'),
    };
  });
}
