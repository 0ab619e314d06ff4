// SHA-256 hex of a string's UTF-8 bytes for the reference journal's digests and keys: @noble/hashes first, node:crypto later.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

// Past this many hashes the driver is a long session, not a crash trial's short one: node:crypto pays for its load.
const NATIVE_AFTER = 64;
let hashes = 0;
let native: ((text: string) => string) | null = null;

/**
 * The same hash as shared/canonical-json.ts's sha256Hex (test/reference-impl/sha256.test.ts compares them). A driver
 * hashes a few hundred bytes per prepare; loading node:crypto for that costs it ~5 ms of start-up CPU (node:crypto pulls
 * in streams, ciphers and key objects), the bundled JS hash ~2 ms, so a short-lived driver (most of a crash matrix's)
 * hashes in JS. The JS hash costs several times node's per call, though, which a long session (a benchmark, a
 * long-running engine) feels: after NATIVE_AFTER hashes the driver loads node:crypto and uses it from then on.
 */
export function sha256Hex(text: string): string {
  if (native !== null) return native(text);
  hashes += 1;
  if (hashes > NATIVE_AFTER) {
    const { createHash } = process.getBuiltinModule('node:crypto');
    native = (t) => createHash('sha256').update(t, 'utf8').digest('hex');
    return native(text);
  }
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/** Which implementation the next hash uses (for tests). */
export function hashPath(): 'js' | 'native' {
  return native === null && hashes < NATIVE_AFTER ? 'js' : 'native';
}
