// A session sweep that deletes the captured rows before it notices it is inside an outer transaction, and then refuses
// (§9: "Reads and sweeps refuse an outer transaction"): the refusal comes, the evidence is already gone. Its hello says
// outerTransactionProbe: false ("the probe is a test hook; we do not ship it"), so cp11.session-sweep.outer-transaction,
// which requires nothing deleted, did not run, while the journal answers the probe as one that has it.
import { JournalError } from '../../../dist/journal.js';
import { claimJournal } from './claim-base.mjs';

export function createJournal(options) {
  return claimJournal('outer-probe-claimed-off', options, (caps) => ({ ...caps, outerTransactionProbe: false }), (j) => ({
    sessionSweep(p) {
      if (p.insideOuterTransaction !== true) return j.sessionSweep(p);
      j.sessionSweep({ ...p, insideOuterTransaction: false });
      throw new JournalError('outer_transaction', 'sessionSweep refuses to run inside an outer transaction');
    },
  }));
}
