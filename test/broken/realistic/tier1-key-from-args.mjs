// The tier-1 idempotency key is derived from what the call is (tool and args digest) rather than drawn at prepare,
// "so a prepare repeated after a crash before the key was stored yields the same key": two distinct effects with the
// same arguments (two reminders at two slots, two nodes) share one key, and the target deduplicates the second away.
import { createHash } from 'node:crypto';
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'tier1-key-from-args', options, (j, ctx) => ({
    prepare(p) {
      const verdict = j.prepare(p);
      if (verdict.verdict !== 'proceed' || p.tier !== 1) return verdict;
      const row = ctx.db().prepare('SELECT tool_id, args_digest FROM run_effects WHERE id = ?').get(Number(verdict.effectId));
      const key = `ik-${createHash('sha256').update(`${row.tool_id}\n${row.args_digest}`).digest('hex').slice(0, 32)}`;
      ctx.db().prepare('UPDATE run_effects SET idempotency_key = ? WHERE id = ?').run(key, Number(verdict.effectId));
      return { ...verdict, idempotencyKey: key };
    },
  }));
}
