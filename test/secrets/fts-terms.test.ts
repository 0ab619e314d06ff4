// Canaries kept as terms of a real SQLite full-text index are found: in its prefix-compressed pages by the byte scan
// (the head that opens every nonced canary), and read whole through the index by the hidden-copy scan.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { scanHiddenCopies } from '../../harness/secrets/hidden-copies.js';
import { CANARY_PREFIX, seededPart, trialNonce, withNonce } from '../../shared/secrets/canary-nonce.js';
import { holdsEncoded } from '../../harness/world/canary-forms.js';
import { makeCanary } from '../../harness/world/byte-scan.js';
import { createRng } from '../../harness/rng.js';

const dir = mkdtempSync(join(tmpdir(), 'ejc-fts-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Explore's canaries (one trial: one nonce, a counter in the seeded part) and the fixed scenarios' (seeded words).
const nonce = trialNonce();
const explore = Array.from({ length: 60 }, (_, id) => withNonce(`${CANARY_PREFIX}1y9xyhax${id.toString(36)}Z`, nonce));
const rng = createRng(3);
const fixed = Array.from({ length: 20 }, () => makeCanary(() => rng.next(), nonce));

// An operator search index over requests, as a journal might keep one: each canary a term of its own, lowercased.
function indexed(name: string, module: 'fts5' | 'fts4' | 'fts5 porter' | 'fts5 trigram', canaries: readonly string[], contentless: boolean): string {
  const file = join(dir, `${name}.db`);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const options = [contentless ? (module === 'fts4' ? 'content=""' : "content=''") : '', module === 'fts5 porter' ? "tokenize='porter unicode61'" : module === 'fts5 trigram' ? "tokenize='trigram'" : ''].filter((o) => o !== '');
  db.exec(`CREATE VIRTUAL TABLE search USING ${module.split(' ')[0]}(tool, request${options.map((o) => `, ${o}`).join('')})`);
  const order = canaries.map((c, i) => ({ c, k: (i * 7919) % canaries.length })).sort((a, b) => a.k - b.k);
  const insert = db.prepare('INSERT INTO search(rowid, tool, request) VALUES (?, ?, ?)');
  order.forEach(({ c }, i) => insert.run(i + 1, 'http_request', JSON.stringify({ url: `https://api.invalid/v1?access_token=${c}&page=2`, auth: `Bearer ${c}` })));
  db.close();
  return file;
}

describe('canaries in a full-text index', () => {
  for (const module of ['fts5', 'fts4', 'fts5 porter', 'fts5 trigram'] as const) {
    it(`a contentless ${module} index: every canary found in its pages and through the index`, () => {
      // A Porter stemmer can take the last letter of a fixed-scenario canary (a final s); explore's end in Z.
      const all = module === 'fts5 porter' ? explore : [...explore, ...fixed];
      const file = indexed(`contentless-${module}`, module, all, true);
      const bytes = readFileSync(file);
      expect(all.filter((c) => !bytes.includes(Buffer.from(c))), 'no canary is in the file as it was planted').toEqual(all);
      // The pages without the file header, as a WAL frame holds them: the byte scan alone, no read through the index.
      const pages = bytes.subarray(100);
      if (module !== 'fts5 trigram') expect(all.filter((c) => !holdsEncoded(pages, c, undefined, all)).map(seededPart), 'the byte scan of the pages').toEqual([]);
      expect(all.filter((c) => !holdsEncoded(bytes, c, undefined, all)).map(seededPart), 'the scan of the file, its index read from the image').toEqual([]);
      const hits = new Set(scanHiddenCopies([file], all).map((h) => h.canary));
      expect(all.filter((_, i) => !hits.has(i)).map(seededPart), 'read through the index').toEqual([]);
    });
  }

  it('without the head, canaries sharing the nonce lose all but their last letters to the prefix compression (why the head exists)', () => {
    // The shape canaries had before: the nonce right after the prefix, so sorted neighbours share all of it.
    const headless = explore.map((c) => `${CANARY_PREFIX}${nonce}${seededPart(c).slice(CANARY_PREFIX.length)}`);
    const bytes = readFileSync(indexed('headless', 'fts5', headless, true)).subarray(100);
    const missed = headless.filter((c) => !holdsEncoded(bytes, c, undefined, headless));
    expect(missed.length).toBeGreaterThan(headless.length / 2);
  });

  it('a full (not contentless) index: found in its pages and through the index', () => {
    const file = indexed('full', 'fts5', fixed, false);
    expect(new Set(scanHiddenCopies([file], fixed).map((h) => h.canary)).size).toBe(fixed.length);
  });

  it('finds nothing in an index of other words, nor another trial\'s canaries (another nonce)', () => {
    const file = indexed('others', 'fts5', Array.from({ length: 30 }, (_, i) => `word${i}x${'q'.repeat(i % 9)}`), true);
    const bytes = readFileSync(file);
    const otherTrial = explore.slice(0, 10).map((c) => withNonce(seededPart(c), trialNonce()));
    expect([...explore, ...fixed].filter((c) => holdsEncoded(bytes, c))).toEqual([]);
    expect(scanHiddenCopies([file], [...explore, ...fixed])).toEqual([]);
    const mine = indexed('mine', 'fts5', explore.slice(0, 10), true);
    expect(otherTrial.filter((c) => holdsEncoded(readFileSync(mine), c, undefined, otherTrial))).toEqual([]);
    expect(scanHiddenCopies([mine], otherTrial)).toEqual([]);
  });
});
