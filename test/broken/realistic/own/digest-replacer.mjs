// The author's digest module: JSON.stringify with the sorted key list as replacer, "so keys always come out in order".
// (A replacer array filters keys at every depth: nested members whose names are not top-level keys vanish from the hash.)
import { createHash } from 'node:crypto';
import { redactArgs, redactValue } from '../../../../dist/reference-impl/redact.js';
import * as original from '../../../../dist/reference-impl/digest.js';

const VERSION = 'v5:';

export function argsDigest(args, secretArgKeys) {
  return VERSION + createHash('sha256').update(argsCanonical(args, secretArgKeys)).digest('hex');
}

// What it hashes, which is also what it answers to argsProjection.
export function argsCanonical(args, secretArgKeys) {
  const projection = redactArgs(args, secretArgKeys);
  return JSON.stringify(projection, Object.keys(projection).sort());
}

export function outputMappingDigest(config) {
  const projection = config === undefined ? { 'ejc:output-mapping': 'absent' } : redactValue(config);
  return VERSION + createHash('sha256').update(JSON.stringify(projection, Object.keys(projection).sort())).digest('hex');
}

export const isCurrentDigest = original.isCurrentDigest;
export const idempotencyKeyFor = original.idempotencyKeyFor;
