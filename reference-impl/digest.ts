// §11 digests: `v5:` + SHA-256 hex of the canonical JSON of a redacted projection.
import { canonicalJson } from '../shared/canonical-json.js';
import { JournalError } from '../harness/journal-interface.js';
import { sha256Hex } from './sha256.js';
import type { EffectScope } from '../shared/protocol/schemas.js';
import { DIGEST_VERSION } from './constants.js';
import { redactArgs, redactValue } from './redact.js';

// Hashed in place of an absent output-mapping config so "none" never equals any real config.
const NO_OUTPUT_MAPPING = { 'ejc:output-mapping': 'absent' };

/** The persisted args digest of a dispatch: secret keys excluded, credential shapes masked. */
export function argsDigest(args: Readonly<Record<string, unknown>>, secretArgKeys: readonly string[]): string {
  return DIGEST_VERSION + sha256Hex(argsCanonical(args, secretArgKeys));
}

/** The canonical JSON of the redacted projection argsDigest hashes (what `argsProjection` answers). */
export function argsCanonical(args: Readonly<Record<string, unknown>>, secretArgKeys: readonly string[]): string {
  try {
    return canonicalJson(redactArgs(args, secretArgKeys));
  } catch (error) {
    // Arguments that are not I-JSON (a lone surrogate) have no canonical form, so no digest: an invalid param, named.
    if (error instanceof TypeError) throw new JournalError('unsupported', `params.args: ${error.message.replace(/^canonicalJson: /, '')}`, { cause: error });
    throw error;
  }
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
export function idempotencyKeyFor(identity: EffectIdentity, id: number, replaces: string | null): string {
  return `ik-${sha256Hex(identityJson(identity, id, replaces)).slice(0, 32)}`;
}

/** The identity an idempotency key is derived from. */
export interface EffectIdentity {
  readonly scope: EffectScope;
  readonly slot: number;
  readonly toolId: string;
}

/**
 * canonicalJson({ identity, id, replaces }) written out for its one fixed shape: every prepare pays for this key,
 * and the generic walk (sorting keys at every level) costs four times as much. test/reference-impl/digest.test.ts
 * checks it against canonicalJson.
 */
export function identityJson(identity: EffectIdentity, id: number, replaces: string | null): string {
  const s = identity.scope;
  const scope = s.kind === 'run'
    ? `{"kind":"run","nodeId":${JSON.stringify(s.nodeId)},"runId":${JSON.stringify(s.runId)}}`
    : `{"kind":"session","sessionId":${JSON.stringify(s.sessionId)},"turn":${number(s.turn)}}`;
  const identityText = `{"scope":${scope},"slot":${number(identity.slot)},"toolId":${JSON.stringify(identity.toolId)}}`;
  return `{"id":${number(id)},"identity":${identityText},"replaces":${replaces === null ? 'null' : JSON.stringify(replaces)}}`;
}

function number(n: number): string {
  if (!Number.isFinite(n)) return canonicalJson(n);
  return JSON.stringify(n);
}
