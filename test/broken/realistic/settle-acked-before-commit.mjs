// Evasive: settle answers before it is durable. It checks the row is prepared, announces settle.before-commit (true: nothing
// is written yet), answers `committed`, and commits on the next turn of the event loop, microseconds after the answer
// left ("the caller need not wait for the fsync"). A kill after the answer lands a millisecond later, when the commit has
// long happened; a real crash between the answer and the commit loses a settle the engine was told was durable.
// settle.after-commit is not announced (there is no such moment inside the call), so the hello does not claim it.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  const inner = { ...options, crashpoint: (point) => (point.startsWith('settle.') ? undefined : options.crashpoint(point)) };
  const faults = new Set();
  const out = journal(createReferenceJournal, 'settle-acked-before-commit', inner, (j, ctx) => ({
    fault(p) {
      const r = j.fault(p);
      if (p.enabled) faults.add(p.fault);
      else faults.delete(p.fault);
      return r;
    },
    settle(p) {
      const row = /^\d+$/.test(p.effectId) ? ctx.db().prepare('SELECT state FROM run_effects WHERE id = ?').get(Number(p.effectId)) : undefined;
      // Errors are answered as the reference answers them.
      if (faults.size > 0 || row?.state !== 'prepared') return j.settle(p);
      options.crashpoint('settle.before-commit');
      setImmediate(() => j.settle(p));
      return { effectId: p.effectId, state: p.state };
    },
  }));
  return Object.assign(out, { capabilities: { ...out.capabilities, crashPoints: out.capabilities.crashPoints.filter((c) => c !== 'settle.after-commit') } });
}
