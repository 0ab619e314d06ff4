// Declared secret keys matched without case ("apiKey, ApiKey, APIKEY: the same secret"): a public argument whose key
// differs from a declared one only in case is dropped from the projection too, so a call that changed it (Region eu
// to us beside a secret `region`) is answered with the first call's recorded result (§11: only keys named in
// secretArgKeys are excluded; every other value counts).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  return journal(createReferenceJournal, 'secret-keys-fold-case', options, (j) => ({
    prepare(p) {
      const folded = new Set(p.secretArgKeys.map((k) => k.toLowerCase()));
      const secretArgKeys = Object.keys(p.args).filter((k) => folded.has(k.toLowerCase()));
      return j.prepare({ ...p, secretArgKeys: [...new Set([...p.secretArgKeys, ...secretArgKeys])] });
    },
  }));
}
