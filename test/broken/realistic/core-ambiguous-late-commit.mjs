// A late answer is the truth: when a target that timed out answers after all, settle turns the ambiguous (or already
// flagged needs_attention) row into a commit with its result, so the gate replays an effect no reconciliation proved.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'core-ambiguous-late-commit', options, (j, ctx) => ({
    settle(p) {
      const row = ctx.db().prepare('SELECT id, scope_kind, state FROM run_effects WHERE id = ?').get(Number(p.effectId));
      if (!row || p.state !== 'committed' || (row.state !== 'ambiguous' && row.state !== 'needs_attention')) return j.settle(p);
      const json = row.scope_kind === 'run' && p.result !== null ? JSON.stringify(p.result) : null;
      ctx.db().prepare(`UPDATE run_effects SET state = 'committed', result_json = ?, updated_at = ? WHERE id = ?`).run(json, new Date().toISOString(), row.id);
      return { effectId: p.effectId, state: 'committed' };
    },
  }));
}
