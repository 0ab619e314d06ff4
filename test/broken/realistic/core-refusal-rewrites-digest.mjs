// The row keeps the latest occurrence for the audit (§2 EffectAttemptId: "which occurrence was this?"): every prepare of
// an existing identity upserts its occurrence, and the upsert's column list carries the args digest along. The first
// changed question is refused correctly; the row now holds its digest, so asking it again replays the old answer.
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();
const { argsDigest } = await import(new URL('../../../dist/reference-impl/index.js', import.meta.url).href);

export function createJournal(options) {
  return journal(createReferenceJournal, 'core-refusal-rewrites-digest', options, (j, ctx) => ({
    prepare(p) {
      const v = j.prepare(p);
      if (v.verdict === 'refuse' && v.effectId !== null && p.correlation.kind === 'run') {
        ctx.db()
          .prepare('UPDATE run_effects SET args_digest = ?, call_id = ?, provider_attempt = ?, owner_id = ?, generation = ? WHERE id = ? AND args_digest LIKE ?')
          .run(argsDigest(p.args, p.secretArgKeys), p.audit.callId, p.audit.providerAttempt, p.audit.ownerId, p.audit.generation, Number(v.effectId), 'v5:%');
      }
      return v;
    },
  }));
}
