// A conservative journal (no reconcilers) that still trusts tier 1's key: a tier-1 row committed without a retained
// result "landed, and the target deduplicates", so the gate lets the node run again and the re-run prepare proceeds
// under the stored key. That is tier 1's reconciling row; the contract ships tier 1 refused like tier 3 (§4, §12.9).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  const conservative = { ...options, options: { ...options.options, tierMode: 'conservative' } };
  return journal(createReferenceJournal, 'core-conservative-tier1-rerun', conservative, (j, ctx) => ({
    gate(p) {
      const d = j.gate(p);
      if (d.decision !== 'refuse' || d.refusal?.code !== 'effect_needs_attention') return d;
      const effects = d.effects.map((e) => (e.tier === 1 && e.state === 'committed' && e.action === 'needs_attention' ? { ...e, action: 'run_again' } : e));
      const attention = effects.filter((e) => e.action === 'needs_attention');
      if (attention.length > 0) return { ...d, effects, refusal: { ...d.refusal, tier: attention[0].tier, effectIds: attention.map((e) => e.effectId) } };
      return { decision: 'pass', effects, refusal: null };
    },
    prepare(p) {
      if (p.correlation.kind !== 'run' || p.tier !== 1) return j.prepare(p);
      const c = p.correlation;
      const db = ctx.db();
      const row = db
        .prepare(`SELECT id, idempotency_key FROM run_effects WHERE scope_kind = 'run' AND run_id = ? AND node_id = ? AND slot = ? AND tool_id = ? AND state = 'committed' AND result_json IS NULL AND resolution IS NULL`)
        .get(c.runId, c.nodeId, p.slot, p.toolId);
      if (!row || row.idempotency_key === null) return j.prepare(p);
      db.prepare('DELETE FROM run_effects WHERE id = ?').run(row.id);
      const v = j.prepare(p);
      if (v.verdict !== 'proceed') return v;
      db.prepare('UPDATE run_effects SET idempotency_key = ? WHERE id = ?').run(row.idempotency_key, Number(v.effectId));
      return { ...v, idempotencyKey: row.idempotency_key };
    },
  }));
}
