// The author's digest: a top-level null member is an optional parameter left out, "the same as not passing it".
import * as original from '../../../../dist/reference-impl/digest.js';
import { digestWith } from './digest-projection.mjs';

const { argsDigest, argsCanonical, outputMappingDigest, isCurrentDigest, idempotencyKeyFor } = digestWith(original, (projection) => {
  const out = {};
  for (const key of Object.keys(projection)) if (projection[key] !== null) Object.defineProperty(out, key, { value: projection[key], enumerable: true, writable: true, configurable: true });
  return out;
});
export { argsDigest, argsCanonical, outputMappingDigest, isCurrentDigest, idempotencyKeyFor };
