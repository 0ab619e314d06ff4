// The author's settle goes through the journal's one write helper (its own transaction, committed inside it) and the
// crash points are announced around that helper's call: "settle.before-commit" right after it returns, read as "before
// the settle is reported committed". Its hello lists the point, so every kill planned there finds the settle durable.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  const inner = { ...options, crashpoint: (point) => (point.startsWith('settle.') ? undefined : options.crashpoint(point)) };
  return journal(createReferenceJournal, 'settle-point-after-write', inner, (j) => ({
    settle(p) {
      const settled = j.settle(p);
      options.crashpoint('settle.before-commit');
      options.crashpoint('settle.after-commit');
      return settled;
    },
  }));
}
