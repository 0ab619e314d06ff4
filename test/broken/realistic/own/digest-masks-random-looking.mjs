// The author's digest: besides §11's shapes, any long high-entropy word is masked "in case it is an unlabelled API key".
import * as original from '../../../../dist/reference-impl/digest.js';
import { digestWith, rebuild } from './digest-projection.mjs';

const WORD = /[A-Za-z0-9+/_=-]{20,}/g;

const { argsDigest, argsCanonical, outputMappingDigest, isCurrentDigest, idempotencyKeyFor } = digestWith(original, (projection) => rebuild(projection, { leaf: (s) => s.replace(WORD, (w) => (entropy(w) >= 3 ? '[redacted]' : w)) }));
export { argsDigest, argsCanonical, outputMappingDigest, isCurrentDigest, idempotencyKeyFor };

// Shannon entropy in bits per character: hex scores about 4, base64 about 5.5, repeated letters about 0.
function entropy(word) {
  const counts = new Map();
  for (const c of word) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / word.length) * Math.log2(n / word.length);
  return bits;
}
