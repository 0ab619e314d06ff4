// The reconciler trusts the engine: whatever evidence arrives is applied to whatever row it names ("the gate only asks
// for evidence it needs"). Proven absence for a tier-3 row, or for a commit whose result was retained, reopens the
// row for one more execution: an opaque effect retried, a committed one run again (§1, §4, §6).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'core-reconcile-trusts-evidence', options, (j, ctx) => ({
    reconcile(p) {
      try {
        return j.reconcile(p);
      } catch (error) {
        if (error?.code !== 'reconcile_invalid') throw error;
        const row = ctx.db().prepare(`SELECT id, idempotency_key FROM run_effects WHERE id = ? AND scope_kind = 'run'`).get(Number(p.effectId));
        if (!row) throw error;
        const now = new Date().toISOString();
        if (p.evidence.kind === 'receipt_absent') {
          ctx.db().prepare(`UPDATE run_effects SET state = 'prepared', result_json = NULL, resolution = NULL, updated_at = ? WHERE id = ?`).run(now, row.id);
          return { effectId: p.effectId, state: 'prepared', execute: { idempotencyKey: row.idempotency_key } };
        }
        ctx.db().prepare(`UPDATE run_effects SET state = 'committed', result_json = ?, updated_at = ? WHERE id = ?`).run(JSON.stringify(p.evidence.result), now, row.id);
        return { effectId: p.effectId, state: 'committed', execute: null };
      }
    },
  }));
}
