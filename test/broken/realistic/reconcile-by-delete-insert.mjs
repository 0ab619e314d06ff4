// Reconciliation replaces the unresolved row with the committed one it became: it deletes the old row, then inserts the
// reconciled row under the same id, two statements, no transaction around them.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();
const { canonicalJson } = await import(new URL('../../../dist/shared/canonical-json.js', import.meta.url).href);

export function createJournal(options) {
  return journal(createReferenceJournal, 'reconcile-by-delete-insert', options, (j, ctx) => ({
    reconcile(p) {
      const db = ctx.db();
      const row = db.prepare('SELECT * FROM run_effects WHERE id = ?').get(Number(p.effectId));
      const kind = p.evidence.kind;
      const applies =
        row !== undefined && row.scope_kind === 'run' && row.idempotency_key !== null && row.resolution === null && ['prepared', 'ambiguous', 'needs_attention'].includes(row.state) &&
        ((row.tier === 1 && kind === 'retried_with_key') || (row.tier === 2 && kind === 'receipt_found'));
      // Anything else (absence, a refusal) the reference answers.
      if (!applies || (options.options.tierMode ?? 'reconciling') !== 'reconciling') return j.reconcile(p);
      const cols = Object.keys(row);
      const now = new Date().toISOString();
      const next = { ...row, state: 'committed', result_json: canonicalJson(p.evidence.result), updated_at: now };
      db.prepare('DELETE FROM run_effects WHERE id = ?').run(row.id);
      db.prepare(`INSERT INTO run_effects (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...cols.map((c) => next[c]));
      return { effectId: p.effectId, state: 'committed', execute: null };
    },
  }));
}
