// Cancelling a run stops its never-started intents first, one statement each, and records the run's cancellation after:
// a crash between leaves cancelled effects under a run that still looks active, with no cancellation anyone asked for.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'kxm-cancel-intents-first', options, (j, ctx) => ({
    'kxm.cancel'(p) {
      if (p.reason.trim() === '') return j['kxm.cancel'](p);
      const db = ctx.db();
      const intents = db.prepare(`SELECT id FROM kxm_effects WHERE run_id = ? AND state = 'intent' ORDER BY id`).all(p.runId);
      for (const e of intents) db.prepare(`UPDATE kxm_effects SET state = 'cancelled' WHERE id = ?`).run(e.id);
      // The reference then records the request, the run's state and the audit entry (no intent is left for it to cancel).
      const answer = j['kxm.cancel'](p);
      return { ...answer, cancelledEffectIds: intents.map((e) => String(e.id)) };
    },
  }));
}
