// A KXM resolution changes the effect's state first and writes its audit entry (actor, reason, references) after, in a
// second statement: a crash between leaves a completed effect with no record of who completed it, or why.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'kxm-resolve-audit-after', options, (j, ctx) => ({
    'kxm.resolve'(p) {
      const db = ctx.db();
      const row = db.prepare('SELECT * FROM kxm_effects WHERE id = ?').get(Number(p.effectId));
      const e = p.evidence;
      const evidenced = (e.receiptId !== undefined && e.receiptAuthoritative === true) || e.postconditionVerified === true;
      // Only mark_completed takes the two-step path; every refusal and every other action is the reference's.
      if (p.action !== 'mark_completed' || !row || row.state !== 'blocked_uncertain' || !evidenced || p.reason.trim() === '') return j['kxm.resolve'](p);
      db.prepare(`UPDATE kxm_effects SET state = 'completed', blocked_reason = NULL, receipt_id = coalesce(?, receipt_id), receipt_source = CASE WHEN ? IS NULL THEN receipt_source ELSE 'resolution' END WHERE id = ?`).run(e.receiptId ?? null, e.receiptId ?? null, row.id);
      const refs = [e.receiptId, e.compensationReceiptId, e.newAttemptId].filter((r) => r !== undefined);
      db.prepare('INSERT INTO kxm_audit (run_id, effect_id, action, actor, reason, references_json, result) VALUES (?, ?, ?, ?, ?, ?, ?)').run(row.run_id, row.id, p.action, p.actor, p.reason, JSON.stringify(refs), 'completed');
      return j['kxm.list']({ runId: row.run_id }).effects.find((x) => x.effectId === p.effectId);
    },
  }));
}
