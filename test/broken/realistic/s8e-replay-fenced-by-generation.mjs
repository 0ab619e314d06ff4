// The owner fence (ownerId, generation) read as a replay condition: a committed row written by an earlier generation is
// "not ours", so a tier-1 replay after a restart re-executes under the stored key ("the target deduplicates, so that is
// safe") instead of re-delivering the record. Every restart turns replays into dispatches (s8e §Exactly-once
// qualification: "restart replay reuses that record"; effect-journal §2 EffectAttemptId is never used for dedup).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 's8e-replay-fenced-by-generation', options, (j, ctx) => ({
    prepare(p) {
      const v = j.prepare(p);
      if (v.verdict !== 'replay') return v;
      const row = ctx.db().prepare('SELECT id, tier, generation, idempotency_key FROM run_effects WHERE id = ?').get(Number(v.effectId));
      if (!row || row.tier !== 1 || row.generation === p.audit.generation || row.idempotency_key === null) return v;
      ctx.db().prepare(`UPDATE run_effects SET state = 'prepared', result_json = NULL, generation = ?, updated_at = ? WHERE id = ?`).run(p.audit.generation, new Date().toISOString(), row.id);
      return { verdict: 'proceed', effectId: v.effectId, idempotencyKey: row.idempotency_key };
    },
  }));
}
