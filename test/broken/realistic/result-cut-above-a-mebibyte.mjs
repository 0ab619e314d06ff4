// Stored results are capped at 1 MiB ("one SQLite page budget"): the model value of a larger result is cut there, so a
// replay re-delivers a shorter value than the original run delivered.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();
const LIMIT = 1024 * 1024;

export function createJournal(options) {
  const capped = (result) => (result && result.modelValue.length > LIMIT ? { ...result, modelValue: result.modelValue.slice(0, LIMIT) } : result);
  return journal(createReferenceJournal, 'result-cut-above-a-mebibyte', options, (j) => ({
    settle(p) {
      return p.state === 'committed' ? j.settle({ ...p, result: capped(p.result) }) : j.settle(p);
    },
    reconcile(p) {
      return 'result' in p.evidence ? j.reconcile({ ...p, evidence: { ...p.evidence, result: capped(p.evidence.result) } }) : j.reconcile(p);
    },
  }));
}
