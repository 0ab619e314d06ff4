// Recovery that found a receipt records its decision (completed) first and the receipt in a second statement: a crash
// between leaves a completed effect with no receipt, which no recovery will look for again.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'kxm-recover-receipt-after', options, (j, ctx) => ({
    'kxm.recover'(p) {
      const db = ctx.db();
      const row = db.prepare('SELECT * FROM kxm_effects WHERE id = ?').get(Number(p.effectId));
      if (!row || row.state !== 'dispatched' || !['receipt-queryable', 'external-idempotent'].includes(row.effect_class) || p.observation.receipt.kind !== 'found' || p.observation.process !== 'ended') return j['kxm.recover'](p);
      db.prepare(`UPDATE kxm_effects SET state = 'completed', reconciliation_attempts = reconciliation_attempts + 1 WHERE id = ?`).run(row.id);
      db.prepare(`UPDATE kxm_effects SET receipt_id = ?, receipt_source = 'query' WHERE id = ?`).run(p.observation.receipt.receiptId, row.id);
      return { effectId: p.effectId, decision: 'record_receipt', state: 'completed', attemptId: row.attempt_id, idempotencyKey: row.idempotency_key, reason: 'stable external receipt found' };
    },
  }));
}
