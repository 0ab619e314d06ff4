// The gate treats an ambiguous tier-1 row as landed: the target deduplicates by the stored key, so the author reasons a
// retry can only find the same write, and the gate commits the row and lets the node pass. When the cancelled dispatch
// never reached the target, the unknown is folded as confirmed and the write is lost (s8e §State machine; §4, §6).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 's8e-gate-settles-ambiguous-tier1', options, (j, ctx) => ({
    gate(p) {
      const d = j.gate(p);
      const landed = d.effects.filter((e) => e.tier === 1 && e.state === 'ambiguous' && e.action === 'retry_with_key');
      if (landed.length === 0 || d.decision !== 'reconcile') return d;
      const now = new Date().toISOString();
      for (const e of landed) ctx.db().prepare(`UPDATE run_effects SET state = 'committed', updated_at = ? WHERE id = ?`).run(now, Number(e.effectId));
      const effects = d.effects.map((e) => (landed.includes(e) ? { ...e, state: 'committed', action: 'none' } : e));
      const reconcile = effects.some((e) => e.action === 'retry_with_key' || e.action === 'reconcile_receipt');
      return { decision: reconcile ? 'reconcile' : 'pass', effects, refusal: null };
    },
  }));
}
