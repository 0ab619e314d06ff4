// A long-lived process keeps the replays it answered (the recorded result of an identity does not change) and drops
// them whenever it writes a row itself: a run finished and swept by another process still replays here.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  const replays = new Map();
  return journal(createReferenceJournal, 'replay-cached-in-process', options, (j) => {
    const forgets = (op) => (p) => {
      replays.clear();
      return j[op](p);
    };
    return {
      prepare(p) {
        const c = p.correlation;
        const key = JSON.stringify([c.kind, c.kind === 'run' ? [c.runId, c.nodeId] : [c.sessionId, c.turn], p.slot, p.toolId, p.args, p.outputMappingConfig ?? null]);
        const hit = replays.get(key);
        if (hit) return hit;
        const v = j.prepare(p);
        if (v.verdict === 'replay') replays.set(key, v);
        if (v.verdict === 'proceed') replays.clear();
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
