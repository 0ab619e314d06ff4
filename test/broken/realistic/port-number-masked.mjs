// The author's `-p` rule keeps the value public only when it is a string of digits ("argv is strings"): a port given as
// a JSON number is masked like a password, so two calls that differ only in that port share one identity and the second
// replays the first one's result (protocol.md: a bare port, 1-5 digits or a JSON number, stays in the projection).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

// What the journal's redactor makes of the arguments before the reference's own projection: a numeric -p value masked.
function maskNumericPorts(value) {
  if (Array.isArray(value)) return value.map((v, i) => (i > 0 && value[i - 1] === '-p' && typeof v === 'number' ? '[masked]' : maskNumericPorts(v)));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskNumericPorts(v)]));
  return value;
}

export function createJournal(options) {
  return journal(createReferenceJournal, 'port-number-masked', options, (j) => ({
    prepare: (p) => j.prepare({ ...p, args: maskNumericPorts(p.args) }),
    argsProjection: (p) => j.argsProjection({ ...p, args: maskNumericPorts(p.args) }),
  }));
}
