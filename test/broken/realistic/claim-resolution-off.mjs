// Operator resolution records every decision as accepted (only the "it happened" button was wired), so a discarded
// effect never runs again (§8). Its hello says resolution: false ("a follow-up, not shipped"), while resolve answers.
import { claimJournal } from './claim-base.mjs';

export function createJournal(options) {
  return claimJournal('claim-resolution-off', options, (caps) => ({ ...caps, resolution: false }), (j) => ({
    resolve: (p) => j.resolve({ ...p, decision: 'accepted' }),
  }));
}
