// The session read remembers which committed rows it has already disclosed ("never nag the user twice about one
// effect") and leaves them out of later reads: a crash after the read and before the notice was shown and the sweep
// ran hides the possibly-incomplete effect for good, though its row is still there (§8: disclosed again until swept).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'session-disclosed-at-read', options, (j, ctx) => ({
    afterOpen() {
      ctx.db().exec('CREATE TABLE IF NOT EXISTS disclosure_log (effect_id TEXT PRIMARY KEY, at TEXT NOT NULL)');
    },
    sessionRead(p) {
      const read = j.sessionRead(p);
      const db = ctx.db();
      const seen = new Set(db.prepare('SELECT effect_id FROM disclosure_log').all().map((r) => r.effect_id));
      const committed = new Map(read.effects.filter((e) => e.state === 'committed').map((e) => [e.effectId, e]));
      const disclosures = read.disclosures.filter((d) => !(d.effectId !== undefined && committed.has(d.effectId) && seen.has(d.effectId)));
      const log = db.prepare('INSERT OR IGNORE INTO disclosure_log (effect_id, at) VALUES (?, ?)');
      db.transaction(() => {
        for (const d of disclosures) if (d.effectId !== undefined && committed.has(d.effectId)) log.run(d.effectId, new Date().toISOString());
      })();
      return { ...read, disclosures };
    },
  }));
}
