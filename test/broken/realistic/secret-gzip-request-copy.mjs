// Each prepare keeps the request gzip-compressed (request_gz) so an operator can re-issue a needs_attention effect after
// checking its target; "compressed, so nobody greps a token out of the file by accident". Every argument byte, declared
// secrets included, is in the journal's file, deflated (§11: a row never stores argument bytes).
import { gzipSync } from 'node:zlib';
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'secret-gzip-request-copy', options, (j, ctx) => ({
    afterOpen() {
      const cols = ctx.db().prepare('PRAGMA table_info(run_effects)').all().map((c) => c.name);
      if (!cols.includes('request_gz')) ctx.db().exec('ALTER TABLE run_effects ADD COLUMN request_gz BLOB');
    },
    prepare(p) {
      const v = j.prepare(p);
      if (v.verdict === 'proceed') ctx.db().prepare('UPDATE run_effects SET request_gz = ? WHERE id = ?').run(gzipSync(JSON.stringify({ toolId: p.toolId, args: p.args })), Number(v.effectId));
      return v;
    },
  }));
}
