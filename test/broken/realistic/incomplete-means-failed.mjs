// The session read counts an exchange as incomplete only when it errored or was aborted ("the turn failed"): one whose
// terminal is missing or that is an orphan reads as completed, so its committed effects stay silent and are swept
// (protocol.md sessionRead; §8: missing-terminal and orphan exchanges disclose conservatively).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();
const FAILED = new Set(['errored', 'aborted']);

export function createJournal(options) {
  return journal(createReferenceJournal, 'incomplete-means-failed', options, (j) => ({
    sessionRead(p) {
      return j.sessionRead({ ...p, transcript: p.transcript.map((turn) => (FAILED.has(turn.status) ? turn : { ...turn, status: 'completed' })) });
    },
  }));
}
