// Rows are found by one scope key, `${runId}/${nodeId}`: a run id holding '/' collides with another run's node, and the
// terminal sweep takes "every key under `${runId}/`" with LIKE, where '_' and '%' in a run id match other runs.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'scope-key-concatenated', options, (j, ctx) => ({
    gate(p) {
      const key = `${p.scope.runId}/${p.scope.nodeId}`;
      const scopes = ctx.db().prepare(`SELECT DISTINCT run_id, node_id FROM run_effects WHERE scope_kind = 'run' AND run_id || '/' || node_id = ?`).all(key);
      if (scopes.length <= 1) return j.gate(scopes.length === 0 ? p : { ...p, scope: { kind: 'run', runId: scopes[0].run_id, nodeId: scopes[0].node_id } });
      const decisions = scopes.map((s) => j.gate({ ...p, scope: { kind: 'run', runId: s.run_id, nodeId: s.node_id } }));
      const worst = decisions.find((d) => d.decision === 'refuse') ?? decisions.find((d) => d.decision === 'reconcile') ?? decisions[0];
      return { ...worst, effects: decisions.flatMap((d) => d.effects) };
    },
    runTerminal(p) {
      const db = ctx.db();
      const deleted = db.transaction(() => {
        const n = db.prepare(`DELETE FROM run_effects WHERE scope_kind = 'run' AND state = 'committed' AND run_id || '/' || node_id LIKE ? || '/%'`).run(p.runId).changes;
        ctx.crashpoint('run-sweep.before-commit');
        return n;
      }).immediate();
      j.checkpoint();
      return { deleted };
    },
  }));
}
