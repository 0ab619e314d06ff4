// The author's digest module: sorts the argument keys so the same call always hashes the same, "canonical JSON".
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
  // Sorted keys, no whitespace: one spelling per call.
  const sorted = Object.fromEntries(Object.keys(projection).sort().map((key) => [key, projection[key]]));
  return JSON.stringify(sorted);
}

export function outputMappingDigest(config) {
  const projection = config === undefined ? { 'ejc:output-mapping': 'absent' } : redactValue(config);
  const sorted = Object.fromEntries(Object.keys(projection).sort().map((key) => [key, projection[key]]));
  return VERSION + createHash('sha256').update(JSON.stringify(sorted)).digest('hex');
}

export const isCurrentDigest = original.isCurrentDigest;
export const idempotencyKeyFor = original.idempotencyKeyFor;
