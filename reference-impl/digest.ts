// §11 digests: `v5:` + SHA-256 hex of the canonical JSON of a redacted projection.
import { canonicalJson, sha256Hex } from '../harness/canonical-json.js';
import { DIGEST_VERSION } from './constants.js';
import { redactArgs, redactValue } from './redact.js';

// Hashed in place of an absent output-mapping config so "none" never equals any real config.
const NO_OUTPUT_MAPPING = { 'ejc:output-mapping': 'absent' };

/** The persisted args digest of a dispatch: secret keys excluded, credential shapes masked. */
export function argsDigest(args: Readonly<Record<string, unknown>>, secretArgKeys: readonly string[]): string {
  return DIGEST_VERSION + sha256Hex(canonicalJson(redactArgs(args, secretArgKeys)));
}

/** The digest of the node's output-mapping configuration the effect ran under. */
export function outputMappingDigest(config: unknown): string {
  const projection = config === undefined ? NO_OUTPUT_MAPPING : redactValue(config);
  return DIGEST_VERSION + sha256Hex(canonicalJson(projection));
}

/** True for a digest written by the current projection; every other form is legacy (§11). */
export function isCurrentDigest(digest: string): boolean {
  return digest.startsWith(DIGEST_VERSION);
}

/** A deterministic target idempotency key, generated once per row at prepare and stored. */
export function idempotencyKeyFor(identity: unknown, id: number, replaces: string | null): string {
  return `ik-${sha256Hex(canonicalJson({ identity, id, replaces })).slice(0, 32)}`;
}
