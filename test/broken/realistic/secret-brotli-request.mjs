// Each prepare keeps the request brotli-compressed (request_br, "a third smaller than gzip for JSON") so an operator can
// re-issue a needs_attention effect after checking its target; the declared secret keys are dropped first. Credential
// shapes outside them (a Bearer header, URL userinfo, a token in the query) stay in the copy, compressed (§11).
import { brotliCompressSync } from 'node:zlib';
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'secret-brotli-request', options, (j, ctx) => ({
    afterOpen() {
      const cols = ctx.db().prepare('PRAGMA table_info(run_effects)').all().map((c) => c.name);
      if (!cols.includes('request_br')) ctx.db().exec('ALTER TABLE run_effects ADD COLUMN request_br BLOB');
    },
    prepare(p) {
      const v = j.prepare(p);
      if (v.verdict !== 'proceed') return v;
      const kept = Object.fromEntries(Object.entries(p.args).filter(([k]) => !p.secretArgKeys.includes(k)));
      ctx.db().prepare('UPDATE run_effects SET request_br = ? WHERE id = ?').run(brotliCompressSync(JSON.stringify({ toolId: p.toolId, args: kept })), Number(v.effectId));
      return v;
    },
  }));
}
