// Session rows keep "what the tool said" for the operator in an audit column: result_json stays NULL and listEffects
// reports resultRetained false, but the session result's bytes sit in the journal's files (§11: a session row holds no result).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'session-result-in-audit', options, (j, ctx) => ({
    afterOpen() {
      const cols = ctx.db().prepare('PRAGMA table_info(run_effects)').all().map((c) => c.name);
      if (!cols.includes('audit_json')) ctx.db().exec('ALTER TABLE run_effects ADD COLUMN audit_json TEXT');
    },
    settle(p) {
      const out = j.settle(p);
      if (p.state === 'committed' && p.result) {
        ctx.db().prepare(`UPDATE run_effects SET audit_json = ? WHERE id = ? AND scope_kind = 'session'`).run(JSON.stringify({ summary: p.result.summary, said: p.result.modelValue }), Number(p.effectId));
      }
      return out;
    },
  }));
}
