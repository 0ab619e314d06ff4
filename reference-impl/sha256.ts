// SHA-256 hex of a string's UTF-8 bytes for the reference journal's digests and keys: @noble/hashes, not node:crypto.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The same hash as harness/canonical-json.ts's sha256Hex (test/reference-impl/sha256.test.ts compares them). A driver
 * hashes a few hundred bytes per prepare; loading node:crypto for that costs it ~5 ms of start-up CPU (node:crypto pulls
 * in streams, ciphers and key objects), the bundled JS hash ~2 ms. The harness keeps node:crypto: it hashes whole reports.
 */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}
