// Canaries unique to the trial (and harness process) that planted them, labelled by their seeded part alone.
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../canonical-json.js';

/** Every canary starts so: recognisable in a hex dump and by the masks. */
export const CANARY_PREFIX = 'EJC-CANARY-';

// N, ten characters drawn once per harness process (about 51 bits), four counting its trials. Upper case only: the
// seeded parts are lower case or end in Z, so the nonce can be cut off again without knowing the seed.
const PROCESS_PART = BigInt(`0x${randomBytes(8).toString('hex')}`).toString(36).toUpperCase().padStart(10, '0').slice(-10);
const NONCE = /^EJC-CANARY-N[0-9A-Z]{14}/;
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

/** `canary` (which starts with the prefix) with `nonce` mixed in right after the prefix. */
export function withNonce(canary: string, nonce: string): string {
  return `${CANARY_PREFIX}${nonce}${canary.slice(CANARY_PREFIX.length)}`;
}

/** The seeded part of a canary: the canary with its nonce cut off (a canary without one is its own seeded part). */
export function seededPart(canary: string): string {
  const m = NONCE.exec(canary);
  return m === null ? canary : `${CANARY_PREFIX}${canary.slice(m[0].length)}`;
}

/**
 * The SHA-256 that names a canary in reports: over its seeded part, so the same seed names the same canaries in
 * every process (reports and the outcome digest repeat) while the bytes planted differ.
 */
export function canaryId(canary: string): string {
  return sha256Hex(seededPart(canary));
}
