// KXM recovery that reads a lost helper connection as a live process: "not proven ended" is taken for "still running",
// so an effect whose process the engine cannot see is reattached and then waits forever for a result nobody will send,
// where the crash matrix asks for the receipt query (kxm-effects-and-recovery §Crash matrix, §Remote execution).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'kxm-reattach-unknown-process', options, (j) => ({
    'kxm.recover'(p) {
      const alive = p.observation.process === 'unknown' ? 'alive_same' : p.observation.process;
      return j['kxm.recover']({ ...p, observation: { ...p.observation, process: alive } });
    },
  }));
}
