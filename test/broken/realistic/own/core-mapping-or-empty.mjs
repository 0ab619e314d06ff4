// The author's digest module: a node without an output mapping maps nothing, the same as an empty mapping.
import { canonicalJson, sha256Hex } from '../../../../dist/shared/canonical-json.js';
import { redactValue } from '../../../../dist/reference-impl/redact.js';
import * as original from '../../../../dist/reference-impl/digest.js';

export function outputMappingDigest(config) {
  return 'v5:' + sha256Hex(canonicalJson(redactValue(config ?? {})));
}

export const argsDigest = original.argsDigest;
export const argsCanonical = original.argsCanonical;
export const isCurrentDigest = original.isCurrentDigest;
export const idempotencyKeyFor = original.idempotencyKeyFor;
export const identityJson = original.identityJson;
