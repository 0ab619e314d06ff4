// The session sweep deletes every committed row up to the newest captured turn ("everything the user has seen"): a row
// that was still unresolved at the read and committed after it, in an earlier turn, goes without ever being captured (§9).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'sweep-through-captured-turn', options, (j, ctx) => ({
    sessionSweep(p) {
      if (p.insideOuterTransaction) return j.sessionSweep(p);
      const mine = p.captured.filter((c) => c.sessionId === p.sessionId);
      if (mine.length === 0) return j.sessionSweep(p);
      const upTo = Math.max(...mine.map((c) => c.turn));
      const rows = ctx.db().prepare(`SELECT id, turn, slot, tool_id FROM run_effects WHERE scope_kind = 'session' AND session_id = ? AND state = 'committed' AND turn <= ?`).all(p.sessionId, upTo);
      const captured = rows.map((r) => ({ effectId: String(r.id), sessionId: p.sessionId, turn: r.turn, slot: r.slot, toolId: r.tool_id, state: 'committed' }));
      return j.sessionSweep({ ...p, captured: [...mine, ...captured.filter((c) => !mine.some((m) => m.effectId === c.effectId))] });
    },
  }));
}
