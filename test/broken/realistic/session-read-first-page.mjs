// The session read takes a session's rows one page at a time "so a long chat cannot blow the memory" and judges the
// first page only: in a session past a thousand rows the newest turn's calls are neither disclosed nor captured, and the
// sweep leaves the rows past the page behind (§8 reads the session's rows, §9 has no completed-turn-count bound).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();
const PAGE = 1000;

export function createJournal(options) {
  return journal(createReferenceJournal, 'session-read-first-page', options, (j) => ({
    sessionRead(p) {
      const out = j.sessionRead(p);
      if (out.effects.length <= PAGE) return out;
      // The reference reads in turn order: the page is the oldest rows.
      const page = out.effects.slice(0, PAGE);
      const seen = new Set(page.map((e) => e.effectId));
      return {
        effects: page,
        disclosures: out.disclosures.filter((d) => d.effectId === undefined || seen.has(d.effectId)),
        captured: out.captured.filter((c) => seen.has(c.effectId)),
      };
    },
  }));
}
