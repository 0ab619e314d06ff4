// Names each session disclosure by the session's first row instead of the row it is about (§8), and hides it behind
// sessions: false ("sessions are beta, do not test them yet") while sessionRead and sessionSweep answer as usual.
import { claimJournal } from './claim-base.mjs';

export function createJournal(options) {
  return claimJournal('claim-sessions-off', options, (caps) => ({ ...caps, sessions: false }), (j) => ({
    sessionRead(p) {
      const out = j.sessionRead(p);
      const first = out.effects[0];
      if (first === undefined) return out;
      return { ...out, disclosures: out.disclosures.map((d) => ({ scope: first.scope, slot: first.slot, toolId: first.toolId, state: first.state, reason: d.reason })) };
    },
  }));
}
