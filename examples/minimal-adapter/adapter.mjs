// A minimal ejc adapter: the EffectJournal interface over a journal you already have.
// Here "your journal" is the reference journal from the installed package, so the example stays
// correct; replace `createReferenceJournal` with your own journal and keep the shape.
import { createReferenceJournal, JournalError } from 'effect-journal-conformance/journal';

// What this adapter claims. The harness runs only scenarios whose needs are announced here; the
// others are reported "not applicable" (never passed). Claim only what you really support.
const CAPABILITIES = {
  // Internal points where the journal calls `crashpoint(name)`: the harness may kill it there.
  crashPoints: ['prepare.before-commit', 'prepare.after-commit', 'settle.before-commit', 'settle.after-commit'],
  // Faults the `fault` operation can switch on.
  faults: ['settle_write_fails', 'gate_read_fails'],
  // No reconcilers: tier 1 and 2 rows are refused like tier 3 (what the spec ships today).
  tierMode: 'conservative',
  sessions: false,
  seeding: false,
  outerTransactionProbe: false,
  // Operator resolution (`resolve`) is a named follow-up of the contract: claim it only if you have it.
  resolution: true,
};

/** Called once per driver process by the host: `crashpoint` must run at every announced point. */
export function createJournal({ crashpoint, options }) {
  // Your journal calls `crashpoint('prepare.before-commit')` inside its prepare transaction, before
  // the commit, and so on. The call returns at once unless the harness armed that point; then it
  // blocks (synchronously, even inside a SQLite transaction) until the harness resumes or kills it.
  const journal = createReferenceJournal({ crashpoint, options, tierMode: 'conservative' });
  return {
    name: options.name ?? 'minimal-adapter',
    version: '0.1.0',
    capabilities: CAPABILITIES,
    // Every method may return a value or a promise. A refusal is thrown as an error with a `code`
    // (a JournalError: an Error named 'JournalError' whose `code` is a JournalErrorCode, see
    // docs/protocol.md); the host turns it into an error response and keeps serving.
    open: (p) => journal.open(p),
    close: () => journal.close(),
    prepare: (p) => journal.prepare(p),
    settle: (p) => journal.settle(p),
    gate: (p) => journal.gate(p),
    reconcile: (p) => journal.reconcile(p),
    resolve: (p) => journal.resolve(p),
    runTerminal: (p) => journal.runTerminal(p),
    sessionRead: (p) => journal.sessionRead(p),
    sessionSweep: (p) => journal.sessionSweep(p),
    checkpoint: () => journal.checkpoint(),
    listEffects: () => journal.listEffects(),
    files: () => journal.files(),
    fault: (p) => {
      if (!CAPABILITIES.faults.includes(p.fault)) throw new JournalError('unsupported', `fault ${p.fault} is not supported`);
      return journal.fault(p);
    },
    seed: () => {
      throw new JournalError('seed_unsupported', 'this journal cannot plant legacy rows');
    },
  };
}
