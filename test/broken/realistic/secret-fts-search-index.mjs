// Operators search past calls ("which effects hit payments.invalid?"), so each prepare also feeds a contentless FTS5
// index (content='': "the table stores no text, only the index") with the request minus its declared secret keys. The
// index keeps every word lowercased, split at punctuation: a Bearer token, URL userinfo or an access_token value sits in
// the journal's file as index terms, never as the bytes the request held (§11: a row never stores argument bytes).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'secret-fts-search-index', options, (j, ctx) => ({
    afterOpen() {
      ctx.db().exec(`CREATE VIRTUAL TABLE IF NOT EXISTS effect_search USING fts5(tool, request, content='')`);
    },
    prepare(p) {
      const v = j.prepare(p);
      if (v.verdict === 'proceed') {
        const shown = Object.fromEntries(Object.entries(p.args).filter(([k]) => !p.secretArgKeys.includes(k)));
        ctx.db().prepare('INSERT INTO effect_search(rowid, tool, request) VALUES (?, ?, ?)').run(Number(v.effectId), p.toolId, JSON.stringify(shown));
      }
      return v;
    },
  }));
}
