// Operators asked "did the retry use a rotated token?", so each prepare also keeps a fingerprint of every declared
// secret argument: the SHA-256 of its value, hex, in a side table beside the effect. The author reasoned that a hash is
// not the bytes; §11 says a secret key is excluded before hashing, "not hashed and hidden": a fingerprint of a token is
// an equality oracle of it (and of a short one, the token).
import { createHash } from 'node:crypto';
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'secret-token-fingerprint', options, (j, ctx) => ({
    afterOpen() {
      ctx.db().exec('CREATE TABLE IF NOT EXISTS credential_fingerprints (effect_id TEXT NOT NULL, arg_key TEXT NOT NULL, sha256 TEXT NOT NULL, PRIMARY KEY (effect_id, arg_key))');
    },
    prepare(p) {
      const v = j.prepare(p);
      if (v.verdict === 'proceed') {
        const insert = ctx.db().prepare('INSERT OR REPLACE INTO credential_fingerprints VALUES (?, ?, ?)');
        for (const key of p.secretArgKeys) {
          const value = p.args[key];
          if (value === undefined) continue;
          insert.run(String(v.effectId), key, createHash('sha256').update(typeof value === 'string' ? value : JSON.stringify(value)).digest('hex'));
        }
      }
      return v;
    },
  }));
}
