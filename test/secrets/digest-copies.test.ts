// A hash of a canary kept beside the row (a token "fingerprint") is found as hex, base64 or a blob; an HMAC under a key
// of the journal's own is not claimed, and no unrelated digest is taken for one.
import { createHash, createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { scanHiddenCopies } from '../../harness/secrets/hidden-copies.js';
import { trialNonce, withNonce } from '../../shared/secrets/canary-nonce.js';
import { holdsDigest, holdsEncoded } from '../../harness/world/canary-forms.js';
import { namedAfter, scanEncodedForms } from '../../harness/world/held-canaries.js';

const dir = mkdtempSync(join(tmpdir(), 'ejc-digest-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const canary = withNonce('EJC-CANARY-k3j9x1q2m0p8Z', trialNonce());
const other = withNonce('EJC-CANARY-k3j9x1q2m0p9Z', trialNonce());
const hash = (a: string, input: string): Buffer => createHash(a).update(input).digest();

describe('hashes of a canary', () => {
  it('finds SHA-256, SHA-1, MD5 and SHA-512 of the canary, its JSON string or its Bearer header, as hex (either case) or base64', () => {
    for (const a of ['sha256', 'sha1', 'md5', 'sha512']) {
      for (const input of [canary, JSON.stringify(canary), `Bearer ${canary}`]) {
        const d = hash(a, input);
        for (const text of [d.toString('hex'), d.toString('hex').toUpperCase(), d.toString('base64'), d.toString('base64url')]) {
          expect(holdsEncoded(Buffer.from(`{"effect":"7","fingerprint":"${text}","at":1}`), canary), `${a} ${text}`).toBe(true);
        }
      }
    }
  });

  it('finds a hash kept as a blob in a SQLite table', () => {
    const file = join(dir, 'blob.db');
    const db = new Database(file);
    db.exec('CREATE TABLE fp (effect TEXT, sha BLOB)');
    db.prepare('INSERT INTO fp VALUES (?, ?)').run('7', hash('sha256', canary));
    db.close();
    expect(scanHiddenCopies([file], [canary, other]).map((h) => h.canary)).toEqual([0]);
  });

  it('finds each hash at every offset inside a long run, in the middle of many runs, and none cut across two runs', () => {
    const filler = (n: number): string => createHash('sha512').update(String(n)).digest('hex').repeat(3).slice(0, n);
    for (const a of ['md5', 'sha1', 'sha256', 'sha512']) {
      const d = hash(a, canary).toString('hex');
      for (let at = 0; at < 40; at++) {
        const runs = [filler(500), `${filler(at)}${d}${filler(37)}`, filler(64)];
        expect(holdsDigest(runs, canary), `${a} at ${at}`).toBe(true);
        // The same digits split between two runs are no copy.
        const cut = 1 + (at % (d.length - 1));
        expect(holdsDigest([filler(500), `${filler(at)}${d.slice(0, cut)}`, `${d.slice(cut)}${filler(37)}`], canary), `${a} cut at ${cut}`).toBe(false);
      }
    }
    expect(holdsDigest([filler(5000)], canary)).toBe(false);
  });

  it('takes no other canary\'s hash, no unrelated digest and no keyed hash for it', () => {
    const text = [hash('sha256', other).toString('hex'), hash('sha256', 'unrelated').toString('hex'), createHmac('sha256', 'journal key').update(canary).digest('hex')].join(' ');
    expect(holdsEncoded(Buffer.from(text), canary)).toBe(false);
    expect(holdsEncoded(Buffer.from(text), other)).toBe(true);
  });
});

describe('paths named after a canary', () => {
  it('finds a file named after a canary or its hash, whatever its bytes, and no other canary for it', () => {
    const sha = hash('sha256', canary).toString('hex');
    expect(namedAfter(`credentials/${sha}.last-used`, [canary, other])).toEqual([true, false]);
    expect(namedAfter(`cache/${canary.toLowerCase()}/state.json`, [canary, other])).toEqual([true, false]);
    expect(namedAfter('effects.db-wal', [canary, other])).toEqual([false, false]);
    mkdirSync(join(dir, 'journal', 'credentials'), { recursive: true });
    writeFileSync(join(dir, 'journal', 'credentials', `${sha}.last-used`), '7\n');
    writeFileSync(join(dir, 'journal', 'empty-named'), '');
    const files = [join(dir, 'journal', 'credentials', `${sha}.last-used`), join(dir, 'journal', 'empty-named')];
    expect(scanEncodedForms(files, [canary, other], join(dir, 'journal')).map((h) => [h.file, h.canary])).toEqual([[`credentials/${sha}.last-used`, 0]]);
  });
});
