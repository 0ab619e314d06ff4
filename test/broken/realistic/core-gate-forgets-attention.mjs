// The gate reads the rows that still need deciding, `state IN ('prepared', 'ambiguous', 'committed')`: a row it moved
// to needs_attention on the first resume is the operator's queue now, so the second resume no longer sees it and passes.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'core-gate-forgets-attention', options, (j, ctx) => ({
    gate(p) {
      const flagged = new Set(
        ctx.db()
          .prepare(`SELECT id FROM run_effects WHERE scope_kind = 'run' AND run_id = ? AND node_id = ? AND state = 'needs_attention'`)
          .all(p.scope.runId, p.scope.nodeId)
          .map((r) => String(r.id)),
      );
      const d = j.gate(p);
      if (flagged.size === 0 || d.refusal?.code === 'gate_read_failed') return d;
      const effects = d.effects.filter((e) => !flagged.has(e.effectId));
      const attention = effects.filter((e) => e.action === 'needs_attention');
      if (attention.length > 0) return { ...d, effects, refusal: { ...d.refusal, tier: attention[0].tier, effectIds: attention.map((e) => e.effectId) } };
      const reconcile = effects.some((e) => e.action === 'retry_with_key' || e.action === 'reconcile_receipt');
      return { decision: reconcile ? 'reconcile' : 'pass', effects, refusal: null };
    },
  }));
}
