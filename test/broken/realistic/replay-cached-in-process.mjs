// A long-lived process keeps the replays it answered (a committed row never changes, so why parse its result twice)
// and forgets a run's replays when it sweeps that run itself: another process's terminal sweep never reaches the cache,
// so the same call at a swept identity is still answered with the old result instead of a new row.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  const replays = new Map();
  return journal(createReferenceJournal, 'replay-cached-in-process', options, (j) => ({
    prepare(p) {
      const c = p.correlation;
      if (c.kind !== 'run') return j.prepare(p);
      const key = JSON.stringify([c.runId, c.nodeId, p.slot, p.toolId, p.args, [...p.secretArgKeys].sort(), p.outputMappingConfig ?? null]);
      const hit = replays.get(key);
      if (hit) return hit;
      const v = j.prepare(p);
      if (v.verdict === 'replay') replays.set(key, v);
      return v;
    },
    runTerminal(p) {
      const out = j.runTerminal(p);
      for (const key of replays.keys()) if (JSON.parse(key)[0] === p.runId) replays.delete(key);
      return out;
    },
  }));
}
