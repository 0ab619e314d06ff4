// Copies of a canary the decoded views cannot see: split into pieces (two columns, rows, chunks), raw deflate or brotli.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { brotliDecompressSync, constants, inflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { canaryId } from '../../shared/secrets/canary-nonce.js';
import { ftsTerms, heldAsTrigrams, quoted } from './fts-terms.js';
import { decodedViews, holdsDigest, holdsEncoded } from '../world/canary-forms.js';

/** A piece shorter than this is not evidence: 8 characters of a canary's random part do not occur by chance. */
export const MIN_PIECE = 8;
const MAX_OUTPUT = 1 << 20;
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
const BASE64_RUN = /[A-Za-z0-9+/_-]{16,}={0,2}/g;
const HEX_RUN = /(?:[0-9A-Fa-f]{2}){12,}/g;

/**
 * Which canaries `files` hold in a form the plain and decoded scans miss: every one of its bytes present in pieces of at
 * least MIN_PIECE, in order (the first half in one column and the second in another, a value chunked over rows or log
 * records, an operator hint keeping a head and a tail); or inside a raw deflate or brotli stream, which has no header to
 * find it by, so it is tried on every value of a SQLite file (read from a copy, never the journal's own connection), on
 * each file whole and on each base64 or hex run decoded; or as a term of a full-text index in a SQLite file (FTS5,
 * FTS3/4), read through the index itself: its pages keep terms lowercased and prefix-compressed, the index reads them whole;
 * or as a hash of it in a SQLite blob.
 */
export function scanHiddenCopies(files: readonly string[], canaries: readonly string[], base?: string): Array<{ file: string; canary: number; canarySha256: string }> {
  const hits: Array<{ file: string; canary: number; canarySha256: string }> = [];
  for (const file of files) {
    const data = read(file);
    if (data.length === 0) continue;
    const sqlite = data.subarray(0, 16).equals(SQLITE_HEADER) ? readSqliteCopy(file) : { values: [], terms: null };
    // Index terms, one per line: the folded search finds a canary's random part among them, decoded once per file.
    const termText = sqlite.terms === null ? null : Buffer.from(sqlite.terms.join('\n'), 'utf8');
    const termViews = termText === null ? null : decodedViews(termText);
    const termSet = new Set(sqlite.terms ?? []);
    const streams = decompressed([data, ...sqlite.values, ...decodedRuns(data)]);
    // A hash kept as a blob (16 to 64 bytes of it in a value) is hex here; the file's hex and base64 runs, canary-forms.
    const blobs = sqlite.values.filter((v) => v.length >= 16 && v.length <= 4096).map((v) => v.toString('hex'));
    canaries.forEach((c, i) => {
      const needle = Buffer.from(c, 'utf8');
      const inTerms = termText !== null && termViews !== null && (holdsEncoded(termText, c, termViews, canaries) || heldAsTrigrams(termSet, c));
      if (inTerms || holdsDigest(blobs, c) || heldInPieces(data, needle) || streams.some((s) => s.includes(needle) || heldInPieces(s, needle))) {
        hits.push({ file: base === undefined ? file : relative(base, file), canary: i, canarySha256: canaryId(c) });
      }
    });
  }
  return hits;
}

/**
 * True when `needle` is in `data` as consecutive pieces of at least `min` bytes, in any order and place, all of it but
 * fewer than `min` bytes at either end (where a chunk boundary leaves a stub too short to be evidence on its own; a copy
 * missing that little is the secret, guessable in the rest). A shorter fragment is no hit.
 */
export function heldInPieces(data: Buffer, needle: Buffer, min = MIN_PIECE): boolean {
  const n = needle.length;
  if (n < 3 * min) return data.includes(needle);
  const reach = new Uint8Array(n + 1);
  reach.fill(1, 0, min);
  for (let j = 0; j + min <= n; j++) {
    if (reach[j] === 0) continue;
    const longest = longestAt(data, needle, j, min);
    if (j + longest > n - min) return true;
    for (let i = j + min; i <= j + longest; i++) reach[i] = 1;
  }
  return false;
}

// The longest piece of needle starting at j that data holds (0 when not even `min` bytes): presence shrinks monotonically.
function longestAt(data: Buffer, needle: Buffer, j: number, min: number): number {
  if (!data.includes(needle.subarray(j, j + min))) return 0;
  let [lo, hi] = [min, needle.length - j];
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (data.includes(needle.subarray(j, j + mid))) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Each of `buffers` inflated as raw deflate and decompressed as brotli, where that yields bytes. */
export function decompressed(buffers: readonly Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  for (const b of buffers) {
    if (b.length < 4) continue;
    for (const decode of [rawInflate, brotli]) {
      const bytes = decode(b);
      if (bytes !== null && bytes.length > 0) out.push(bytes);
    }
  }
  return out;
}

function rawInflate(b: Buffer): Buffer | null {
  try {
    return inflateRawSync(b, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: MAX_OUTPUT });
  } catch {
    return null;
  }
}

function brotli(b: Buffer): Buffer | null {
  try {
    return brotliDecompressSync(b, { finishFlush: constants.BROTLI_OPERATION_FLUSH, maxOutputLength: MAX_OUTPUT });
  } catch {
    return null;
  }
}

// Each base64/base64url and hex run decoded from its start: a compressed copy kept as text.
function decodedRuns(data: Buffer): Buffer[] {
  const text = data.toString('latin1');
  const out: Buffer[] = [];
  for (const [run] of text.matchAll(BASE64_RUN)) out.push(Buffer.from(run.replace(/[-_]/g, (c) => (c === '-' ? '+' : '/')), 'base64'));
  for (const [run] of text.matchAll(HEX_RUN)) out.push(Buffer.from(run, 'hex'));
  return out;
}

/**
 * Every text and blob value of every table of the SQLite file, read from a copy of it and its -wal in a temporary
 * directory (removed again), so the journal's own files, locks and checkpoints are untouched. Unreadable: none.
 */
export function sqliteValues(file: string): Buffer[] {
  return readSqliteCopy(file).values;
}

/**
 * The values of sqliteValues and, when the file has full-text tables, every term their indexes hold (as the index
 * returns it: lowercased by its tokenizer), read through fts5vocab or fts4aux tables made on the copy.
 */
export function readSqliteCopy(file: string): { values: Buffer[]; terms: string[] | null } {
  const dir = mkdtempSync(join(tmpdir(), 'ejc-values-'));
  try {
    const copy = join(dir, basename(file));
    copyFileSync(file, copy);
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
    const db = new Database(copy, { fileMustExist: true });
    try {
      const values: Buffer[] = [];
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
      for (const table of tables) {
        try {
          for (const row of db.prepare(`SELECT * FROM ${quoted(table)}`).raw().iterate() as Iterable<unknown[]>) {
            for (const v of row) {
              if (Buffer.isBuffer(v)) values.push(v);
              else if (typeof v === 'string' && v.length >= 4) values.push(Buffer.from(v, 'utf8'));
            }
          }
        } catch {
          // a virtual table this build cannot read (a module it lacks, a contentless FTS4 table): its shadow tables are
          // plain tables and read as such
        }
      }
      return { values, terms: ftsTerms(db) };
    } finally {
      db.close();
    }
  } catch {
    return { values: [], terms: null }; // not a database after all, or torn: the byte scans still read it whole
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function read(file: string): Buffer {
  try {
    return statSync(file).isFile() ? readFileSync(file) : Buffer.alloc(0);
  } catch {
    return Buffer.alloc(0);
  }
}
