// The hidden-copy scans find a canary split into pieces, raw-deflated or brotli-compressed (in a SQLite value or a file),
// and the world scan's needles find it re-encoded, while unrelated bytes and a lone fragment are never a hit.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, deflateRawSync, gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { heldInPieces, scanHiddenCopies } from '../../harness/secrets/hidden-copies.js';
import { canaryMatcher, encodedNeedles, wholeFileViews } from '../../harness/secrets/encoded-needles.js';

const CANARY = 'EJC-CANARY-NQ0X7ZK2M4L9A00030.k3j9x1q2m0.p8w7e6r5t4';
const dir = mkdtempSync(join(tmpdir(), 'ejc-hidden-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bytes = (s: string): Buffer => Buffer.from(s, 'latin1');

describe('heldInPieces', () => {
  it('finds a canary split in two at every point, in either order, with bytes between', () => {
    for (let k = 8; k <= CANARY.length - 8; k++) {
      expect(heldInPieces(bytes(`tail=${CANARY.slice(k)}\x00\x07head=${CANARY.slice(0, k)}`), bytes(CANARY)), `split at ${k}`).toBe(true);
    }
  });
  it('finds overlapping head and tail hints and chunks of 12', () => {
    expect(heldInPieces(bytes(`${CANARY.slice(0, 30)}|${CANARY.slice(-30)}`), bytes(CANARY))).toBe(true);
    const chunks = CANARY.match(/.{1,12}/g)!.reverse().join('\x01\x02');
    expect(heldInPieces(bytes(chunks), bytes(CANARY))).toBe(true);
  });
  it('is a hit missing a stub shorter than 8 at an end, none for a shorter fragment, the prefix of another canary, or pieces shorter than 8', () => {
    expect(heldInPieces(bytes(`${CANARY.slice(0, -3)}"}`), bytes(CANARY))).toBe(true);
    expect(heldInPieces(bytes(CANARY.slice(0, -8)), bytes(CANARY))).toBe(false);
    expect(heldInPieces(bytes(CANARY.slice(8)), bytes(CANARY))).toBe(false);
    expect(heldInPieces(bytes(`${CANARY.slice(0, 30)}EJC-CANARY-NQ0X7ZK2M4L9A00030.zzzzzzzzzz0.qqqqqqqqq`), bytes(CANARY))).toBe(false);
    expect(heldInPieces(bytes(CANARY.match(/.{1,6}/g)!.join('\x00')), bytes(CANARY))).toBe(false);
  });
});

describe('scanHiddenCopies', () => {
  const record = Buffer.from(JSON.stringify({ args: { auth: `Bearer ${CANARY}`, amount: 42 } }));
  it('finds raw deflate and brotli copies in SQLite values (WAL mode, rows still in the -wal) and in base64 text', () => {
    const db = new Database(join(dir, 'j.db'));
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, a BLOB, b BLOB, c TEXT)');
    db.prepare('INSERT INTO t (a, b, c) VALUES (?, ?, ?)').run(deflateRawSync(record), brotliCompressSync(Buffer.from('x')), 'plain');
    db.prepare('INSERT INTO t (a, b, c) VALUES (?, ?, ?)').run(Buffer.from('y'), brotliCompressSync(record), 'plain');
    writeFileSync(join(dir, 'log.txt'), `line ${deflateRawSync(record).toString('base64')}\nline ${brotliCompressSync(record).toString('base64url')}\n`);
    const hits = scanHiddenCopies([join(dir, 'j.db'), join(dir, 'log.txt')], [CANARY, 'EJC-CANARY-NQ0X7ZK2M4L9A00030.other00000.other0000'], dir);
    db.close();
    expect(hits.map((h) => [h.file, h.canary])).toEqual([['j.db', 0], ['log.txt', 0]]);
  });
  it('finds nothing in a journal file that holds no copy', () => {
    writeFileSync(join(dir, 'clean.log'), `${gzipSync(Buffer.from('nothing')).toString('base64')} ${CANARY.slice(0, 20)}\n`);
    expect(scanHiddenCopies([join(dir, 'clean.log')], [CANARY])).toEqual([]);
  });
});

describe('encodedNeedles', () => {
  it('finds a canary re-encoded inside larger data at every alignment, and percent-encoded', () => {
    for (const prefix of ['', 'a', 'ab', 'abc', '{"auth":"Bearer ']) {
      const data = Buffer.from(`${prefix}${CANARY}","amount":42}`);
      const needles = encodedNeedles(CANARY);
      const forms = [data.toString('base64'), data.toString('base64url'), data.toString('hex'), data.toString('hex').toUpperCase(), [...data].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('')];
      for (const form of forms) expect(needles.some((n) => Buffer.from(`x${form}y`).includes(n)), form).toBe(true);
      expect(needles.some((n) => Buffer.from(data.toString('utf8'), 'utf16le').includes(n))).toBe(true);
    }
    expect(encodedNeedles(CANARY).some((n) => Buffer.from(Buffer.from('EJC-CANARY-NQ0X7ZK2M4L9A00030.k3j9x1q2m0.p8w7e6r5t5').toString('base64')).includes(n))).toBe(false);
  });
  it('decompresses a whole gzip file and a .br file', () => {
    expect(wholeFileViews(gzipSync(Buffer.from(CANARY)), 'a.log.gz').some((v) => v.includes(Buffer.from(CANARY)))).toBe(true);
    expect(wholeFileViews(brotliCompressSync(Buffer.from(CANARY)), 'dump.json.br').some((v) => v.includes(Buffer.from(CANARY)))).toBe(true);
  });
  it('matches which of a trial\'s canaries (one prefix and nonce) a file holds plain, encoded or compressed, and no other', () => {
    const others = ['EJC-CANARY-NQ0X7ZK2M4L9A00030.aaaaaaaaaa0.bbbbbbbbb', 'EJC-CANARY-NQ0X7ZK2M4L9A00030.cccccccccc0.ddddddddd'];
    const match = canaryMatcher([others[0]!, CANARY, others[1]!]);
    expect(match(Buffer.from(`debug ${Buffer.from(`{"auth":"Bearer ${CANARY}"}`).toString('base64')}\n`), 'x.log')).toEqual([1]);
    expect(match(gzipSync(Buffer.from(others[1]!)), 'x.log.gz')).toEqual([2]);
    expect(match(Buffer.from(`plain ${others[0]} and ${encodeURIComponent(CANARY)}`), 'x')).toEqual([0, 1]);
    expect(match(Buffer.from(Buffer.from(others[0]!.slice(0, 40)).toString('base64')), 'x')).toEqual([]);
    // Plain alone, encoded alone, and the trial's common prefix alone (no canary).
    expect(match(Buffer.from(`a line ${others[1]} and more`), 'x')).toEqual([2]);
    expect(match(Buffer.from(`a line ${Buffer.from(CANARY).toString('hex')} and more`), 'x')).toEqual([1]);
    expect(match(Buffer.from(`a line ${CANARY.slice(0, 31)} and more`), 'x')).toEqual([]);
  });
});
