// A long-lived process keeps the gate decisions that passed (a node that passed has nothing unresolved) and drops them
// whenever it writes a row itself: another process's writes to the same journal never reach that cache.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  const passed = new Map();
  return journal(createReferenceJournal, 'gate-pass-cached-in-process', options, (j) => {
    const forgets = (op) => (p) => {
      passed.clear();
      return j[op](p);
    };
    return {
      gate(p) {
        const key = JSON.stringify([p.scope.runId, p.scope.nodeId]);
        const hit = passed.get(key);
        if (hit) return hit;
        const d = j.gate(p);
        if (d.decision === 'pass') passed.set(key, d);
        return d;
      },
      prepare(p) {
        const v = j.prepare(p);
        if (v.verdict === 'proceed') passed.clear();
        return v;
      },
      settle: forgets('settle'),
      reconcile: forgets('reconcile'),
      resolve: forgets('resolve'),
      runTerminal: forgets('runTerminal'),
      sessionSweep: forgets('sessionSweep'),
      seed: forgets('seed'),
    };
  });
}
