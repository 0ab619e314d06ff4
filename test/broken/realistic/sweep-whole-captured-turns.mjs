// The session sweep deletes the committed rows of every turn the read captured ("a captured turn is done"), not the
// captured rows themselves: a call of that turn that committed after the read goes too, never disclosed.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'sweep-whole-captured-turns', options, (j, ctx) => ({
    sessionSweep(p) {
      if (p.insideOuterTransaction) return j.sessionSweep(p);
      const turns = [...new Set(p.captured.filter((c) => c.sessionId === p.sessionId).map((c) => c.turn))];
      const rows = turns.length === 0 ? [] : ctx.db().prepare(`SELECT id, turn, slot, tool_id FROM run_effects WHERE scope_kind = 'session' AND session_id = ? AND state = 'committed' AND turn IN (${turns.map(() => '?').join(', ')})`).all(p.sessionId, ...turns);
      const captured = rows.map((r) => ({ effectId: String(r.id), sessionId: p.sessionId, turn: r.turn, slot: r.slot, toolId: r.tool_id, state: 'committed' }));
      return j.sessionSweep({ ...p, captured });
    },
  }));
}
