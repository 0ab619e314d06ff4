// Targets forget idempotency keys after 24 hours (payment APIs do), so a retry of an older effect gets a fresh key:
// after a long outage, the target no longer recognises the retry and performs it again.
import { DAY, journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'key-renewed-after-a-day', options, (j, ctx) => ({
    gate(p) {
      const d = j.gate(p);
      const now = Date.now();
      const effects = d.effects.map((e) => {
        if (e.action !== 'retry_with_key' && e.action !== 'reconcile_receipt') return e;
        const row = ctx.db().prepare('SELECT created_at FROM run_effects WHERE id = ?').get(Number(e.effectId));
        if (!row || now - Date.parse(row.created_at) < DAY) return e;
        const fresh = `${e.idempotencyKey}-renewed-${Math.floor(now / DAY)}`;
        ctx.db().prepare('UPDATE run_effects SET idempotency_key = ? WHERE id = ?').run(fresh, Number(e.effectId));
        return { ...e, idempotencyKey: fresh };
      });
      return { ...d, effects };
    },
  }));
}
