// Rows are kept small: the stored model value is cut to 4 KiB ("it is a preview anyway"), so a replay re-delivers a
// shorter value than the original run delivered.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();
const LIMIT = 4096;

export function createJournal(options) {
  const small = (result) => (result && result.modelValue.length > LIMIT ? { ...result, modelValue: result.modelValue.slice(0, LIMIT) } : result);
  return journal(createReferenceJournal, 'result-bound-truncates', options, (j) => ({
    settle(p) {
      return p.state === 'committed' ? j.settle({ ...p, result: small(p.result) }) : j.settle(p);
    },
    reconcile(p) {
      return 'result' in p.evidence ? j.reconcile({ ...p, evidence: { ...p.evidence, result: small(p.evidence.result) } }) : j.reconcile(p);
    },
  }));
}
