// A canary as bytes a journal may have transformed before writing: base64, base64url, hex, UTF-16, zlib or gzip
// compressed, or case-folded and cut at its punctuation (a lowercased copy, a full-text index's tokens).
import { createHash } from 'node:crypto';
import { constants, inflateRawSync } from 'node:zlib';
import { CANARY_PREFIX, isNonced } from '../../shared/secrets/canary-nonce.js';
import { heldAsTrigrams, imageTerms } from '../secrets/fts-terms.js';

// Shorter runs cannot hold a whole canary (16 bytes or more) in any of these encodings.
const BASE64_RUN = /[A-Za-z0-9+/_-]{20,}/g;
const HEX_RUN = /[0-9A-Fa-f]{32,}/g;
// Streams tried per file, and bytes one may inflate to: bounds, so a file full of bytes that look like stream headers
// (random data decodes to a little garbage before its error) costs a known amount of time and memory.
const MAX_STREAMS = 2048;
// Leading characters of a nonced canary's head a prefix-compressed index may have left out of its term (what the term
// shares with its sorted neighbour): two heads share this much by chance about once in 36^6 pairs.
const HEAD_SLACK = 6;
const MAX_INFLATED = 1 << 20;

/**
 * The views of a file a transformed canary could hide in: `exact` ones hold it whole, `folded` ones lowercased, and
 * `digests` is every hex run and every decoded base64 run as lower-case hex, where a hash of it would be.
 */
export interface Views {
  readonly exact: Buffer[];
  readonly folded: Buffer[];
  readonly digests: string[];
  /** The terms of the file's full-text indexes when it is a SQLite image that has some (fts-terms.ts), else empty. */
  readonly terms: ReadonlySet<string>;
}

/**
 * Every decoding of `data` a journal's transformed copy could hide in: each base64 or base64url run decoded from each of
 * its 4 character offsets (a record header may precede the encoded text), each hex run from both nibble offsets, the
 * whole file read as UTF-16 in both byte orders, and every zlib or gzip stream inflated (a compressed request kept "for
 * re-issue"). The file and its inflated streams are also kept lowercased, where the canary's random part is looked for
 * lowercased: a case-normalised copy or a full-text index (which lowercases and splits at the canary's dashes) holds it.
 * A canary is found whole (or its whole random part, less the start of its head that a prefix-compressed index drops),
 * never by a fragment.
 */
export function decodedViews(data: Buffer): Views {
  const text = data.toString('latin1');
  const exact: Buffer[] = [];
  const digests: string[] = [];
  for (const [run] of text.matchAll(BASE64_RUN)) {
    for (let offset = 0; offset < 4; offset++) {
      const decoded = Buffer.from(run.slice(offset).replace(/[-_]/g, (c) => (c === '-' ? '+' : '/')), 'base64');
      exact.push(decoded);
      if (decoded.length >= 16) digests.push(decoded.toString('hex'));
    }
  }
  for (const [run] of text.matchAll(HEX_RUN)) {
    digests.push(run.toLowerCase());
    for (let offset = 0; offset < 2; offset++) {
      const even = run.slice(offset, offset + Math.floor((run.length - offset) / 2) * 2);
      exact.push(Buffer.from(even, 'hex'));
    }
  }
  for (let offset = 0; offset < 2; offset++) {
    const even = Buffer.from(data.subarray(offset, offset + Math.floor((data.length - offset) / 2) * 2));
    exact.push(Buffer.from(even.toString('utf16le'), 'utf8'), Buffer.from(even.swap16().toString('utf16le'), 'utf8'));
  }
  const inflated = inflatedStreams(data);
  exact.push(...inflated);
  const lower = text.toLowerCase();
  const terms = data.subarray(0, 16).toString('latin1') === 'SQLite format 3\0' ? imageTerms(data, lower) : null;
  // Index terms, one per line, are lowercase words: the folded search finds a canary's random part among them.
  const folded = [lower, ...inflated.map((b) => b.toString('latin1').toLowerCase()), ...(terms === null ? [] : [terms.join('\n')])].map((s) => Buffer.from(s, 'latin1'));
  return { exact, folded, digests, terms: new Set(terms ?? []) };
}

/**
 * True when `data` holds `canary` in one of its transformed forms (see decodedViews). `siblings` are the other canaries
 * of the trial: lowercased, one canary's random part can be the start of another's (explore's `…x2Z` folds to a prefix
 * of `…x2zZ`), so a folded occurrence that is the start of a longer sibling's is that sibling's, not this canary's.
 */
export function holdsEncoded(data: Buffer, canary: string, views = decodedViews(data), siblings: readonly string[] = []): boolean {
  const needle = Buffer.from(canary, 'utf8');
  if (views.exact.some((v) => v.includes(needle))) return true;
  if (holdsDigest(views.digests, canary) || heldAsTrigrams(views.terms, canary)) return true;
  const random = foldedRandomPart(canary);
  if (random === null) return false;
  const longer = siblings.map(foldedRandomPart).filter((b): b is Buffer => b !== null && b.length > random.length && b.subarray(0, random.length).equals(random));
  return views.folded.some((v) => {
    for (let at = v.indexOf(random); at >= 0; at = v.indexOf(random, at + 1)) {
      if (!longer.some((b) => v.subarray(at, at + b.length).equals(b))) return true;
    }
    return false;
  });
}

/**
 * True when one of `hexRuns` (lower-case hex) contains a hash of `canary`: SHA-256, SHA-1, MD5 or SHA-512 of the canary,
 * of it as a JSON string or as a Bearer credential. §11 excludes a secret key before hashing, "not hashed and hidden": a
 * journal keeping a fingerprint of a token (to notice a rotated one) keeps an equality oracle of it. A keyed hash (an HMAC
 * with a key of the journal's own) cannot be seen this way, and is not claimed.
 */
export function holdsDigest(hexRuns: readonly string[], canary: string): boolean {
  if (hexRuns.length === 0) return false;
  const index = runIndex(hexRuns);
  return digestsOf(canary).some((d) => index.holds(d));
}

// Every digest is at least 32 hex digits long (MD5), so any copy of one covers a whole window of WINDOW digits that starts
// at a multiple of WINDOW: looking up the digest's WINDOW-digit pieces at each of the WINDOW offsets finds it.
export const WINDOW = 16;

/**
 * The runs joined into one text, a newline between two (no hex digit, so no digest spans two runs), with the position of
 * each window of WINDOW characters starting at a multiple of WINDOW. Hex has 16 letters, so a plain substring search
 * barely skips ahead: a file's runs are asked for 12 digests of every canary of the trial, and a lookup per digest piece
 * costs a fraction of a search through megabytes. Kept per array, since a file's views are asked about every canary.
 */
function runIndex(hexRuns: readonly string[]): { holds(digest: string): boolean } {
  let index = INDEXES.get(hexRuns);
  // An array that grew since (a caller's own, pushed to) is indexed again.
  if (index?.count !== hexRuns.length) {
    const text = hexRuns.join('\n');
    const windows = new Map<string, number[]>();
    for (let at = 0; at + WINDOW <= text.length; at += WINDOW) {
      const key = text.slice(at, at + WINDOW);
      const list = windows.get(key);
      if (list === undefined) windows.set(key, [at]);
      else list.push(at);
    }
    const holds = (digest: string): boolean => {
      // A digest shorter than two windows could lie between window starts: searched for plainly.
      if (digest.length < 2 * WINDOW - 1) return text.includes(digest);
      for (let offset = 0; offset < WINDOW; offset++) {
        for (const at of windows.get(digest.slice(offset, offset + WINDOW)) ?? []) {
          if (at - offset >= 0 && text.startsWith(digest, at - offset)) return true;
        }
      }
      return false;
    };
    index = { count: hexRuns.length, holds };
    INDEXES.set(hexRuns, index);
  }
  return index;
}
const INDEXES = new WeakMap<readonly string[], { count: number; holds(digest: string): boolean }>();

const DIGESTS = new Map<string, string[]>();
/** The hex digests holdsDigest looks for: SHA-256, SHA-1, MD5 and SHA-512 of the canary, of it as a JSON string and as a Bearer credential. */
export function digestsOf(canary: string): string[] {
  let out = DIGESTS.get(canary);
  if (out === undefined) {
    out = [canary, JSON.stringify(canary), `Bearer ${canary}`].flatMap((input) => ['sha256', 'sha1', 'md5', 'sha512'].map((a) => createHash(a).update(input, 'utf8').digest('hex')));
    // A trial's canaries are asked about again and again; a long run makes many, so the memo forgets the oldest.
    if (DIGESTS.size >= 4096) DIGESTS.delete(DIGESTS.keys().next().value!);
    DIGESTS.set(canary, out);
  }
  return out;
}

// The canary after its fixed prefix, lowercased: its random part (head, nonce and seeded part), one word to a tokenizer.
// A nonced canary's is looked for without the first HEAD_SLACK characters of its head: a full-text index or an LSM
// block keeps its terms sorted and writes each as the part after what it shares with the term before it, and that
// neighbour may be another canary (the rest, nonce and seeded part, still names this canary alone). Null for a value
// that is not a canary or whose random part is too short to be unmistakable.
export function foldedRandomPart(canary: string): Buffer | null {
  // Asked for every sibling of every canary in every file a scan reads: computed once per canary (never changed by a caller).
  let folded = FOLDED.get(canary);
  if (folded === undefined) {
    folded = computeFoldedRandomPart(canary);
    if (FOLDED.size >= 4096) FOLDED.delete(FOLDED.keys().next().value!);
    FOLDED.set(canary, folded);
  }
  return folded;
}
const FOLDED = new Map<string, Buffer | null>();

function computeFoldedRandomPart(canary: string): Buffer | null {
  if (!canary.startsWith(CANARY_PREFIX)) return null;
  const random = canary.slice(CANARY_PREFIX.length);
  if (!/^[0-9A-Za-z]{12,}$/.test(random)) return null;
  return Buffer.from(random.slice(isNonced(canary) ? HEAD_SLACK : 0).toLowerCase(), 'latin1');
}

// Each zlib (RFC 1950) and gzip (RFC 1952) stream, inflated as far as it goes (trailing bytes of a page are ignored).
function inflatedStreams(data: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let tried = 0;
  for (let i = 0; i + 2 < data.length && tried < MAX_STREAMS; i++) {
    // Most bytes can open neither header (zlib's CM 8 nibble, gzip's 0x1f): passed over without a call.
    const a = data[i]!;
    if ((a & 0x0f) !== 8 && a !== 0x1f) continue;
    const start = streamStart(data, i);
    if (start === null) continue;
    tried += 1;
    try {
      const bytes = inflateRawSync(data.subarray(start), { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: MAX_INFLATED });
      if (bytes.length > 0) out.push(bytes);
    } catch {
      // not a stream after all
    }
  }
  return out;
}

function streamStart(data: Buffer, i: number): number | null {
  const [a, b] = [data[i]!, data[i + 1]!];
  // zlib: CM 8 with a window of at most 32 KiB, no preset dictionary, and the header's check bits.
  if ((a & 0x0f) === 8 && a >> 4 <= 7 && (b & 0x20) === 0 && ((a << 8) | b) % 31 === 0) return i + 2;
  if (a !== 0x1f || b !== 0x8b || data[i + 2] !== 8) return null;
  const flags = data[i + 3] ?? 0;
  let at = i + 10;
  if (flags & 0x04) at += 2 + (data.readUInt16LE(Math.min(at, data.length - 2)) || 0);
  for (const bit of [0x08, 0x10]) {
    if (flags & bit) {
      const end = data.indexOf(0, at);
      if (end < 0) return null;
      at = end + 1;
    }
  }
  if (flags & 0x02) at += 2;
  return at < data.length ? at : null;
}
