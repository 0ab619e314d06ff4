// The author reads a scope as (id, sub-id) whatever its kind: a run's gate and terminal sweep take in the rows of a
// session with the same id, the turn read as the node ("1"), so a session's unresolved row blocks the run and a run's
// end sweeps the session's committed rows before any disclosure read.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();
const SCOPE = `coalesce(run_id, session_id) = ? AND coalesce(node_id, CAST(turn AS TEXT)) = ?`;

export function createJournal(options) {
  return journal(createReferenceJournal, 'scope-ignores-kind', options, (j, ctx) => ({
    gate(p) {
      const decision = j.gate(p);
      if (decision.decision === 'refuse') return decision;
      const others = ctx.db().prepare(`SELECT * FROM run_effects WHERE scope_kind = 'session' AND ${SCOPE} ORDER BY slot, id`).all(p.scope.runId, p.scope.nodeId);
      // A session row holds no result, so read as the node's own it can only block.
      const blocking = others.map((r) => ({ effectId: String(r.id), slot: r.slot, toolId: r.tool_id, tier: r.tier, state: r.state, action: 'needs_attention', idempotencyKey: r.idempotency_key }));
      if (blocking.length === 0) return decision;
      const effectIds = blocking.map((e) => e.effectId);
      return { decision: 'refuse', effects: [...decision.effects, ...blocking], refusal: { code: 'effect_needs_attention', tier: blocking[0].tier, effectIds, message: `effect(s) ${effectIds.join(', ')} need attention` } };
    },
    runTerminal(p) {
      const db = ctx.db();
      const deleted = db.transaction(() => {
        const n = db.prepare(`DELETE FROM run_effects WHERE state = 'committed' AND coalesce(run_id, session_id) = ?`).run(p.runId).changes;
        ctx.crashpoint('run-sweep.before-commit');
        return n;
      }).immediate();
      j.checkpoint();
      return { deleted };
    },
  }));
}
