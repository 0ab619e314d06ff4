// Canaries unique to the trial (and harness process) that planted them, labelled by their seeded part alone.
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../canonical-json.js';

/** Every canary starts so: recognisable in a hex dump and by the masks. */
export const CANARY_PREFIX = 'EJC-CANARY-';

// N, ten characters drawn once per harness process (about 51 bits), four counting its trials. Upper case only: the
// seeded parts are lower case or end in Z, so the nonce can be cut off again without knowing the seed.
const PROCESS_PART = BigInt(`0x${randomBytes(8).toString('hex')}`).toString(36).toUpperCase().padStart(10, '0').slice(-10);
/** Characters of the head that opens a nonced canary's random part, derived from its seeded part. */
export const HEAD_LENGTH = 8;
const NONCED = new RegExp(`^EJC-CANARY-[0-9a-z]{${HEAD_LENGTH}}N[0-9A-Z]{14}`);
let trials = 0;

/**
 * A nonce for one trial's canaries. Two harness processes running the same seed (or one process running it twice, or a
 * shrink re-running a case) plant different bytes, so a file holding a canary was written by that trial's drivers, never
 * by another run's: no scan has to guess which run a leak belongs to.
 */
export function trialNonce(): string {
  const n = trials++ % 36 ** 4;
  return `N${PROCESS_PART}${n.toString(36).toUpperCase().padStart(4, '0')}`;
}

/**
 * `canary` (which starts with the prefix) with a head and `nonce` mixed in right after the prefix. The head (lower-case
 * base 36 of the seeded part's SHA-256) makes two canaries of one trial differ from their first character on: a store
 * that keeps sorted keys or index terms prefix-compressed (an FTS5 segment, an LSM block) writes each term as the part
 * after what it shares with the one before, and canaries sharing the nonce would lose all of it but their last letters.
 * With the head only a few characters go (what sorted neighbours share by chance), and the scans look for the rest.
 */
export function withNonce(canary: string, nonce: string): string {
  if (nonce === '') return canary;
  return `${CANARY_PREFIX}${head(canary)}${nonce}${canary.slice(CANARY_PREFIX.length)}`;
}

function head(seeded: string): string {
  return BigInt(`0x${sha256Hex(seeded).slice(0, 12)}`).toString(36).padStart(HEAD_LENGTH, '0').slice(-HEAD_LENGTH);
}

/** Whether `canary` carries a head and nonce (withNonce), so the first HEAD_LENGTH characters of its random part are its head. */
export function isNonced(canary: string): boolean {
  return NONCED.test(canary);
}

/**
 * The prefixes of unmarked secrets: the shapes of real credentials (a Stripe live key, a GitHub, GitLab and Slack token),
 * so a journal that spares the harness's EJC-CANARY- strings and keeps everything else keeps these too, and one that
 * redacts every value of these shapes redacts its users' real credentials of those shapes as well.
 */
export const UNMARKED_PREFIXES = ['sk_live_', 'ghp_', 'glpat-', 'xoxb-'] as const;
const UNMARKED = /^(sk_live_|ghp_|glpat-|xoxb-)N[0-9A-Z]{14}([0-9a-z]{16,})$/;

/**
 * A secret with nothing of the harness in it: a credential's prefix (the `i`-th, cycling), the trial's nonce and 16 or
 * more seeded characters, e.g. `sk_live_N4K2…0003k1x9…`. No EJC-CANARY- marks it: a journal cannot tell it from a real one.
 */
export function unmarkedSecret(seeded: string, nonce: string, i: number): string {
  const tail = seeded.replace(/[^0-9a-z]/g, '').padEnd(16, '0');
  return `${UNMARKED_PREFIXES[i % UNMARKED_PREFIXES.length]}${nonce.padEnd(15, '0').slice(0, 15)}${tail}`;
}

/** The seeded part of a canary: the canary with its nonce cut off (a canary without one is its own seeded part). */
export function seededPart(canary: string): string {
  const m = NONCED.exec(canary);
  if (m !== null) return `${CANARY_PREFIX}${canary.slice(m[0].length)}`;
  const u = UNMARKED.exec(canary);
  return u === null ? canary : `${u[1]}${u[2]}`;
}

/**
 * The SHA-256 that names a canary in reports: over its seeded part, so the same seed names the same canaries in
 * every process (reports and the outcome digest repeat) while the bytes planted differ.
 */
export function canaryId(canary: string): string {
  return sha256Hex(seededPart(canary));
}
