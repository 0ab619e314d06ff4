// The reference's digest module with one step of the author's own between redaction and hashing: `alter(projection)`.
import { canonicalJson } from '../../../../dist/shared/canonical-json.js';
import { sha256Hex } from '../../../../dist/reference-impl/sha256.js';
import { redactArgs } from '../../../../dist/reference-impl/redact.js';

/**
 * The digest module whose args digest hashes `alter(redactArgs(args), args)`; everything else is `original`'s (the reference's
 * digest module, imported by the replacement itself: the swap hook redirects every other importer to the replacement).
 */
export function digestWith(original, alter) {
  return {
    argsDigest: (args, secretArgKeys) => `v5:${sha256Hex(canonicalJson(alter(redactArgs(args, secretArgKeys), args)))}`,
    argsCanonical: (args, secretArgKeys) => canonicalJson(alter(redactArgs(args, secretArgKeys), args)),
    outputMappingDigest: original.outputMappingDigest,
    isCurrentDigest: original.isCurrentDigest,
    idempotencyKeyFor: original.idempotencyKeyFor,
  };
}

/** Rebuilds a JSON value bottom-up: `leaf` for strings, `list` for arrays, `object` for objects (own data members kept). */
export function rebuild(value, { leaf = (s) => s, list = (a) => a, object = (o) => o } = {}) {
  if (typeof value === 'string') return leaf(value);
  if (Array.isArray(value)) return list(value.map((v) => rebuild(v, { leaf, list, object })));
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const key of Object.keys(value)) Object.defineProperty(out, key, { value: rebuild(value[key], { leaf, list, object }), enumerable: true, writable: true, configurable: true });
    return object(out);
  }
  return value;
}
