// Evasive (realistic): "arguments are encrypted at rest". Each prepare keeps the call's arguments, secrets included, in a
// side table as AES-256-GCM ciphertext under a key the journal generated once and keeps in the same database, so an
// operator's attention view can show what a stuck call was. No byte of a secret, in any encoding a scan could decode,
// is in the files; the secret is, for anyone holding the file.
import { createCipheriv, randomBytes } from 'node:crypto';
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();

export function createJournal(options) {
  let key = null;
  return journal(createReferenceJournal, 'args-sealed-at-rest', options, (j, ctx) => ({
    afterOpen() {
      const db = ctx.db();
      db.exec('CREATE TABLE IF NOT EXISTS sealing_key (id INTEGER PRIMARY KEY CHECK (id = 1), key BLOB NOT NULL)');
      db.exec('CREATE TABLE IF NOT EXISTS sealed_args (effect_id TEXT PRIMARY KEY, iv BLOB NOT NULL, tag BLOB NOT NULL, sealed BLOB NOT NULL)');
      db.prepare('INSERT OR IGNORE INTO sealing_key VALUES (1, ?)').run(randomBytes(32));
      key = db.prepare('SELECT key FROM sealing_key WHERE id = 1').get().key;
    },
    prepare(p) {
      const v = j.prepare(p);
      if (v.verdict === 'proceed') {
        const iv = randomBytes(12);
        const cipher = createCipheriv('aes-256-gcm', key, iv);
        const sealed = Buffer.concat([cipher.update(JSON.stringify(p.args), 'utf8'), cipher.final()]);
        ctx.db().prepare('INSERT OR REPLACE INTO sealed_args VALUES (?, ?, ?, ?)').run(String(v.effectId), iv, cipher.getAuthTag(), sealed);
      }
      return v;
    },
  }));
}
