// Which of a trial's canaries a file's views hold, all asked at once: holdsEncoded's answer for each, at a fraction of its cost.
import { readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { canaryId } from '../../shared/secrets/canary-nonce.js';
import { heldAsTrigrams } from '../secrets/fts-terms.js';
import { decodedViews, digestsOf, foldedRandomPart, WINDOW, type Views } from './canary-forms.js';

/**
 * For each of `canaries` (or only those `ask` names; the others read false), exactly `holdsEncoded(data, canary, views,
 * canaries)`. A scan asks every canary of a trial about every changed file, and a trial plants a hundred or more: asked
 * one by one, each canary searched every view and looked up a dozen digests at sixteen offsets. Here, canaries that
 * share a trial's nonce (withNonce: every canary of a trial carries it whole, and lowercased in its random part) search
 * only the views that hold the nonce, which is most often none; and a file's hex runs are looked up once, window by
 * window, against an index of every canary's digests.
 */
export function heldCanaries(data: Buffer, canaries: readonly string[], views: Views = decodedViews(data), ask: readonly number[] = canaries.map((_, i) => i)): boolean[] {
  const out = canaries.map(() => false);
  const byNonce = new Map<string, number[]>();
  for (const i of ask) {
    const nonce = NONCE.exec(canaries[i]!)?.[0] ?? '';
    const group = byNonce.get(nonce);
    if (group === undefined) byNonce.set(nonce, [i]);
    else group.push(i);
  }
  for (const [nonce, group] of byNonce) {
    // A view without the nonce holds no canary that carries it; a canary without one ('') is searched for everywhere.
    const exact = nonce === '' ? views.exact : views.exact.filter((v) => v.includes(nonce, 0, 'latin1'));
    const lower = nonce.toLowerCase();
    const folded = nonce === '' ? views.folded : views.folded.filter((v) => v.includes(lower, 0, 'latin1'));
    for (const i of group) {
      const canary = canaries[i]!;
      const needle = Buffer.from(canary, 'utf8');
      if (exact.some((v) => v.includes(needle)) || heldAsTrigrams(views.terms, canary)) {
        out[i] = true;
        continue;
      }
      const random = foldedRandomPart(canary);
      if (random === null) continue;
      // Only a random part that holds the nonce lowercased can rely on the filtered views.
      const among = nonce !== '' && random.includes(lower, 0, 'latin1') ? folded : views.folded;
      out[i] = among.some((v) => foldedHit(v, random, canaries));
    }
  }
  if (views.digests.length > 0) {
    const wanted = new Set(ask.filter((i) => !out[i]));
    if (wanted.size > 0) for (const i of digestHits(views.digests, canaries)) if (wanted.has(i)) out[i] = true;
  }
  return out;
}

/** Which canaries appear transformed in which file (by canaryId, never by value). */
export function scanEncodedForms(files: readonly string[], canaries: readonly string[], base?: string): Array<{ file: string; canary: number; canarySha256: string }> {
  const hits: Array<{ file: string; canary: number; canarySha256: string }> = [];
  for (const file of files) {
    const name = base === undefined ? file : relative(base, file);
    const named = namedAfter(name, canaries);
    const data = read(file);
    const held = data.length === 0 ? null : heldCanaries(data, canaries);
    canaries.forEach((c, i) => {
      if (named[i] || held?.[i] === true) hits.push({ file: name, canary: i, canarySha256: canaryId(c) });
    });
  }
  return hits;
}

/**
 * For each canary, whether the path `name` (relative to the journal's directory, or whole for a file outside it) holds
 * it in any form holdsEncoded knows, a hash of it included: a directory entry is bytes on disk too, and a file named
 * after a credential (a per-token cache, a marker named by the token's SHA-256) keeps the credential or its equality
 * oracle there, whatever the file contains.
 */
export function namedAfter(name: string, canaries: readonly string[]): boolean[] {
  const bytes = Buffer.from(name, 'utf8');
  const held = heldCanaries(bytes, canaries);
  return canaries.map((c, i) => held[i]! || bytes.includes(Buffer.from(c, 'utf8')));
}

// A nonce as trialNonce makes it: N, then fourteen upper-case base-36 characters.
const NONCE = /N[0-9A-Z]{14}/;

// A lowercased random part found in `view` where it is not the start of a longer sibling's (holdsEncoded's rule).
function foldedHit(view: Buffer, random: Buffer, siblings: readonly string[]): boolean {
  let longer: Buffer[] | null = null;
  for (let at = view.indexOf(random); at >= 0; at = view.indexOf(random, at + 1)) {
    longer ??= siblings.map(foldedRandomPart).filter((b): b is Buffer => b !== null && b.length > random.length && b.subarray(0, random.length).equals(random));
    if (!longer.some((b) => view.subarray(at, at + b.length).equals(b))) return true;
  }
  return false;
}

/**
 * The indexes of the canaries one of whose digests lies in `hexRuns`: holdsDigest for all of them. Each WINDOW-character
 * piece of every digest, at each offset, is indexed once per canary list; a file's runs are then read window by window
 * (at multiples of WINDOW, as holdsDigest's index does) and each candidate checked in full.
 */
function digestHits(hexRuns: readonly string[], canaries: readonly string[]): Set<number> {
  const index = digestIndex(canaries);
  const text = hexRuns.join('\n');
  const hits = new Set<number>();
  for (let at = 0; at + WINDOW <= text.length; at += WINDOW) {
    for (const [i, digest, offset] of index.get(text.slice(at, at + WINDOW)) ?? []) {
      if (!hits.has(i) && at - offset >= 0 && text.startsWith(digest, at - offset)) hits.add(i);
    }
  }
  return hits;
}

type DigestIndex = Map<string, Array<[number, string, number]>>;

// Kept per canary list and extended as the list grows (a trial's book only ever appends).
function digestIndex(canaries: readonly string[]): DigestIndex {
  let entry = DIGEST_INDEXES.get(canaries);
  if (entry === undefined || entry.values.some((c, i) => canaries[i] !== c)) {
    entry = { values: [], index: new Map() };
    DIGEST_INDEXES.set(canaries, entry);
  }
  for (let i = entry.values.length; i < canaries.length; i++) {
    const canary = canaries[i]!;
    entry.values.push(canary);
    for (const digest of digestsOf(canary)) {
      for (let offset = 0; offset < WINDOW && offset + WINDOW <= digest.length; offset++) {
        const key = digest.slice(offset, offset + WINDOW);
        const list = entry.index.get(key);
        if (list === undefined) entry.index.set(key, [[i, digest, offset]]);
        else list.push([i, digest, offset]);
      }
    }
  }
  return entry.index;
}
const DIGEST_INDEXES = new WeakMap<readonly string[], { values: string[]; index: DigestIndex }>();

function read(file: string): Buffer {
  try {
    return statSync(file).isFile() ? readFileSync(file) : Buffer.alloc(0);
  } catch {
    return Buffer.alloc(0);
  }
}
