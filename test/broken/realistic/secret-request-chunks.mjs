// Each prepare keeps the request for an operator to re-issue after checking a needs_attention target, with the declared
// secret keys dropped ("the credentials are in secretArgKeys"), in 16-byte chunks one row each ("small cells never spill
// onto overflow pages, and secure_delete erases whole pages"). A Bearer header, URL userinfo or a token in the query is
// still in the copy, split over two or three rows: no row holds it whole (§11: a row never stores argument bytes).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();
const CHUNK = 16;

export function createJournal(options) {
  return journal(createReferenceJournal, 'secret-request-chunks', options, (j, ctx) => ({
    afterOpen() {
      ctx.db().exec('CREATE TABLE IF NOT EXISTS request_chunks (effect_id INTEGER NOT NULL, seq INTEGER NOT NULL, bytes TEXT NOT NULL, PRIMARY KEY (effect_id, seq))');
    },
    prepare(p) {
      const v = j.prepare(p);
      if (v.verdict !== 'proceed') return v;
      const kept = Object.fromEntries(Object.entries(p.args).filter(([k]) => !p.secretArgKeys.includes(k)));
      const text = JSON.stringify({ toolId: p.toolId, args: kept });
      const insert = ctx.db().prepare('INSERT OR REPLACE INTO request_chunks (effect_id, seq, bytes) VALUES (?, ?, ?)');
      ctx.db().transaction(() => {
        for (let i = 0; i * CHUNK < text.length; i++) insert.run(Number(v.effectId), i, text.slice(i * CHUNK, (i + 1) * CHUNK));
      })();
      return v;
    },
  }));
}
