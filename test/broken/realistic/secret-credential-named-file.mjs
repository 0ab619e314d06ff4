// Operators wanted to see which credentials a run used and when, without keeping any credential: each prepare touches a
// marker file per declared secret argument under the journal's directory, named by the SHA-256 of the value
// (`credentials/<sha256>.last-used`, holding only the effect id). The file's bytes hold nothing secret; its name is the
// token's hash, an equality oracle of it (§11: excluded before hashing, not hashed and hidden) kept in a directory entry.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  let dir = null;
  return journal(createReferenceJournal, 'secret-credential-named-file', options, (j) => ({
    open(p) {
      const result = j.open(p);
      dir = join(dirname(result.files[0]), 'credentials');
      mkdirSync(dir, { recursive: true });
      return result;
    },
    // The markers are the journal's own files, and it says so.
    files(p) {
      const result = j.files(p);
      return dir === null ? result : { ...result, files: [...result.files, ...readdirSync(dir).sort().map((n) => join(dir, n))] };
    },
    prepare(p) {
      const v = j.prepare(p);
      if (v.verdict === 'proceed' && dir !== null) {
        for (const key of p.secretArgKeys) {
          const value = p.args[key];
          if (value === undefined) continue;
          const name = createHash('sha256').update(typeof value === 'string' ? value : JSON.stringify(value)).digest('hex');
          writeFileSync(join(dir, `${name}.last-used`), `${v.effectId}\n`);
        }
      }
      return v;
    },
  }));
}
