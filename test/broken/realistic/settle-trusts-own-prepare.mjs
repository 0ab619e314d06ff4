// settle trusts what its own process last saw of a row: one this process prepared, and saw prepared ever since (its own
// gate, listing, resolve and settle update that view), is taken to be still prepared, so the store's "already settled"
// is read as a retry of this very settle and answered as done. Another process's gate and operator resolution never
// reach that view: the late settle of a row resolved elsewhere is answered as taken while the row still says discarded
// (a re-run repeats the effect). From red team H's Perl journal (settle checked the state in its in-memory view).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  const seenPrepared = new Set();
  const saw = (effects) => {
    for (const e of effects) if (e.state !== 'prepared') seenPrepared.delete(e.effectId);
  };
  return journal(createReferenceJournal, 'settle-trusts-own-prepare', options, (j) => ({
    prepare(p) {
      const v = j.prepare(p);
      if (v.verdict === 'proceed') seenPrepared.add(v.effectId);
      return v;
    },
    gate(p) {
      const d = j.gate(p);
      saw(d.effects);
      return d;
    },
    listEffects(p) {
      const out = j.listEffects(p);
      saw(out.effects);
      return out;
    },
    resolve(p) {
      seenPrepared.delete(p.effectId);
      return j.resolve(p);
    },
    settle(p) {
      try {
        const out = j.settle(p);
        seenPrepared.delete(p.effectId);
        return out;
      } catch (error) {
        if (error?.code === 'settle_already_settled' && seenPrepared.delete(p.effectId)) return { effectId: p.effectId, state: p.state };
        throw error;
      }
    },
  }));
}
