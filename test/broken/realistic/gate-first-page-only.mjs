// The gate reads a node's rows one page at a time "so a huge node cannot blow the memory" and decides on the first
// page: an unresolved effect past row 1000 of a wide node never blocks the re-run (a page of 1000 passed a node of 300).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();
const PAGE = 1000;

export function createJournal(options) {
  return journal(createReferenceJournal, 'gate-first-page-only', options, (j, ctx) => ({
    gate(p) {
      const db = ctx.db();
      const total = db.prepare(`SELECT count(*) AS n FROM run_effects WHERE scope_kind = 'run' AND run_id = ? AND node_id = ?`).get(p.scope.runId, p.scope.nodeId).n;
      if (total <= PAGE) return j.gate(p);
      const page = db.prepare(`SELECT * FROM run_effects WHERE scope_kind = 'run' AND run_id = ? AND node_id = ? ORDER BY slot, id LIMIT ?`).all(p.scope.runId, p.scope.nodeId, PAGE);
      const reconciling = (options.options.tierMode ?? 'reconciling') === 'reconciling';
      const effects = page.map((r) => {
        const attention = r.tier === 3 && r.resolution === null && (r.state === 'prepared' || r.state === 'ambiguous');
        return { effectId: String(r.id), slot: r.slot, toolId: r.tool_id, tier: r.tier, state: attention ? 'needs_attention' : r.state, action: actionFor(r, reconciling), idempotencyKey: r.idempotency_key };
      });
      const moved = effects.filter((e, i) => e.state === 'needs_attention' && page[i].state !== 'needs_attention').map((e) => Number(e.effectId));
      for (const id of moved) db.prepare(`UPDATE run_effects SET state = 'needs_attention' WHERE id = ? AND state IN ('prepared', 'ambiguous')`).run(id);
      const refused = effects.filter((e) => e.action === 'needs_attention');
      if (refused.length > 0) {
        const effectIds = refused.map((e) => e.effectId);
        return { decision: 'refuse', effects, refusal: { code: 'effect_needs_attention', tier: refused[0].tier, effectIds, message: `effect(s) ${effectIds.join(', ')} need attention` } };
      }
      return { decision: effects.some((e) => e.action === 'retry_with_key' || e.action === 'reconcile_receipt') ? 'reconcile' : 'pass', effects, refusal: null };
    },
  }));
}

// The reference's table (§4), row by row.
function actionFor(row, reconciling) {
  if (row.state === 'committed' && row.result_json !== null) return 'replay';
  if (row.resolution === 'accepted') return 'none';
  if (row.resolution === 'discarded') return 'run_again';
  if (!reconciling || row.tier === 3) return 'needs_attention';
  return row.tier === 1 ? 'retry_with_key' : 'reconcile_receipt';
}
