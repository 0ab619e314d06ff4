// Its gate passes a node whose only rows are tier-3 prepares that never settled ("no settle, so the call never went
// out"): the engine re-runs an effect that may have happened (§4). Its hello says gate: "harness", so the harness gated
// from its rows and never asked the journal's own gate, which the engine built on it does use.
import { JournalError } from '../../../dist/journal.js';
import { claimJournal } from './claim-base.mjs';

export function createJournal(options) {
  let readFails = false;
  return claimJournal('claim-harness-gate', options, (caps) => ({ ...caps, gate: 'harness' }), (j) => ({
    gate(p) {
      const d = j.gate(p);
      const hopeful = d.decision === 'refuse' && d.effects.length > 0 && d.effects.every((e) => e.tier === 3 && e.state !== 'committed');
      return hopeful ? { decision: 'pass', effects: d.effects.map((e) => ({ ...e, action: 'run_again' })), refusal: null } : d;
    },
    // The rows the harness gates from fail to read when the gate's read does: the one bug is the gate's.
    listEffects() {
      if (readFails) throw new JournalError('internal', 'the effects table could not be read');
      return j.listEffects();
    },
    fault(p) {
      if (p.fault === 'gate_read_fails') readFails = p.enabled;
      return j.fault(p);
    },
  }));
}
