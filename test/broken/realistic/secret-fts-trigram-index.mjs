// Operators search past calls by any substring of a URL or a header ("which calls went to …/v1/charges?"), so each
// prepare also feeds a contentless FTS5 index with the trigram tokenizer (substring search needs it) over the request
// minus its declared secret keys. The author counted on two things: the table stores no text (content=''), and the
// index holds only three-character terms, "not the value". Overlapping trigrams are the value: a Bearer token, URL
// userinfo or an access_token kept in the file as its every three characters (§11: a row never stores argument bytes).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'secret-fts-trigram-index', options, (j, ctx) => ({
    afterOpen() {
      ctx.db().exec(`CREATE VIRTUAL TABLE IF NOT EXISTS effect_search USING fts5(tool, request, content='', tokenize='trigram')`);
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
