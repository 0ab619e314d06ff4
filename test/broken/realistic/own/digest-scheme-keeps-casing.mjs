// The author's digest: a masked credential scheme keeps the label as the caller spelled it ("so the digest shows what
// was sent"): "Bearer x" and "bearer y" hash apart although they differ only in the credential.
import * as original from '../../../../dist/reference-impl/digest.js';
import { digestWith } from './digest-projection.mjs';

const SCHEME = /^\s*(bearer|basic|token)\s+\S/i;

const { argsDigest, outputMappingDigest, isCurrentDigest, idempotencyKeyFor } = digestWith(original, (projection, args) => spelled(projection, args));
export { argsDigest, outputMappingDigest, isCurrentDigest, idempotencyKeyFor };

// Walks the projection beside the arguments it came from; a masked scheme takes the argument's spelling of its label.
function spelled(projected, arg) {
  if (typeof projected === 'string' && typeof arg === 'string') {
    const m = SCHEME.exec(arg);
    return m && projected.toLowerCase() === `${m[1].toLowerCase()} [redacted]` ? `${m[1]} [redacted]` : projected;
  }
  if (Array.isArray(projected) && Array.isArray(arg)) return projected.map((v, i) => spelled(v, arg[i]));
  if (projected !== null && typeof projected === 'object' && arg !== null && typeof arg === 'object') {
    const out = {};
    for (const key of Object.keys(projected)) Object.defineProperty(out, key, { value: spelled(projected[key], arg[key]), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return projected;
}
