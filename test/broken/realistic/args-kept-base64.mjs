// Each prepare keeps the original request base64-encoded (request_b64) so an operator can "inspect and re-issue" a
// needs_attention effect: no argument appears as text in the file, every argument byte (secrets included) is there (§11).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'args-kept-base64', options, (j, ctx) => ({
    afterOpen() {
      const cols = ctx.db().prepare('PRAGMA table_info(run_effects)').all().map((c) => c.name);
      if (!cols.includes('request_b64')) ctx.db().exec('ALTER TABLE run_effects ADD COLUMN request_b64 TEXT');
    },
    prepare(p) {
      const v = j.prepare(p);
      if (v.verdict === 'proceed') ctx.db().prepare('UPDATE run_effects SET request_b64 = ? WHERE id = ?').run(Buffer.from(JSON.stringify({ toolId: p.toolId, args: p.args })).toString('base64'), Number(v.effectId));
      return v;
    },
  }));
}
