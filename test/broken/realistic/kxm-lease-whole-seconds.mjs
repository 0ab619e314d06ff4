// The journal keeps KXM instants at the engine's one-second clock resolution ("sub-second precision is noise"): `now`
// is truncated to its whole second before the lease check, so an intent dispatched a few hundred milliseconds after its
// lease expired still starts (kxm-effects-and-recovery §Lease failure: expired before dispatch, not started).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();
const second = (now) => Math.floor(now / 1000) * 1000;

export function createJournal(options) {
  return journal(createReferenceJournal, 'kxm-lease-whole-seconds', options, (j) => ({
    'kxm.dispatch': (p) => j['kxm.dispatch']({ ...p, now: second(p.now) }),
    'kxm.recover': (p) => j['kxm.recover']({ ...p, now: second(p.now) }),
  }));
}
