// The §11 digest test vectors, computed by the reference journal's own redaction and digest: what a journal in any
// language checks its projection against. `npm run gen:vectors` writes them to docs/digest-vectors.json.
import { argsCanonical, argsDigest } from './digest.js';
import { REDACTED, redactArgs } from './redact.js';
import { VECTOR_CASES, type VectorCase } from './vector-cases.js';

/** Where the vectors live, relative to the package root (shipped with docs/). */
export const VECTORS_FILE = 'docs/digest-vectors.json';

/** One vector: the input, the redacted projection, its canonical JSON and the `v5:` digest a prepare must persist. */
export interface DigestVector extends VectorCase {
  readonly projection: Record<string, unknown>;
  readonly canonical: string;
  readonly digest: string;
  /** Where §11 leaves the reading open, the digest of each other allowed reading: a journal may persist any of them. */
  readonly alternatives?: readonly AllowedReading[];
}

/** Another reading the contract allows, with the canonical JSON and digest it gives. */
export interface AllowedReading {
  readonly choice: string;
  readonly canonical: string;
  readonly digest: string;
}

/** Short key names of credentials that no credential word names (a detector may or may not recognize them). */
const SHORT_CREDENTIAL_KEYS: ReadonlySet<string> = new Set(['pin', 'otp', 'cvv', 'cvc']);

/**
 * The readings §11 leaves open, each as a rewrite of the args that the reference's projection then masks alike. §11
 * keeps "the existing port-shaped exception" for -p without defining port-shaped: docs/protocol.md lets a port
 * mapping or range (`8080:80`, `22/tcp`) be read either way, so masking it is allowed too.
 */
const OTHER_READINGS: ReadonlyArray<{ choice: string; rewrite: (value: unknown) => unknown }> = [
  { choice: 'a port mapping or range after -p read as a secret (only a bare port number kept)', rewrite: maskPortMappings },
  // protocol.md: "a detector's reading of an unnamed credential-looking key" is free; a PIN or one-time code is one.
  { choice: `a key named ${[...SHORT_CREDENTIAL_KEYS].join(', ')} read as a credential key (its value masked whole)`, rewrite: maskShortCredentialKeys },
];

/** Every vector, computed now by the reference journal's redaction. */
export function buildDigestVectors(cases: readonly VectorCase[] = VECTOR_CASES): DigestVector[] {
  return cases.map((c) => {
    const projection = redactArgs(c.args, c.secretArgKeys);
    const digest = argsDigest(c.args, c.secretArgKeys);
    const alternatives = OTHER_READINGS.flatMap(({ choice, rewrite }) => {
      const args = rewrite(c.args) as Record<string, unknown>;
      const other = argsDigest(args, c.secretArgKeys);
      return other === digest ? [] : [{ choice, canonical: argsCanonical(args, c.secretArgKeys), digest: other }];
    });
    return { ...c, projection, canonical: argsCanonical(c.args, c.secretArgKeys), digest, ...(alternatives.length === 0 ? {} : { alternatives }) };
  });
}

// Every member, at any depth, whose key is one of SHORT_CREDENTIAL_KEYS (in any case), masked whole.
function maskShortCredentialKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskShortCredentialKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const member = SHORT_CREDENTIAL_KEYS.has(key.toLowerCase()) ? REDACTED : maskShortCredentialKeys((value as Record<string, unknown>)[key]);
    Object.defineProperty(out, key, { value: member, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

// Every -p value in an argument vector that is not a bare port number, masked (separate or inline).
function maskPortMappings(value: unknown): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = value.map(maskPortMappings);
    for (let i = 0; i < out.length; i++) {
      const [item, next] = [out[i], out[i + 1]];
      if (item === '-p' && typeof next === 'string' && !/^\d{1,5}$/.test(next)) out[i + 1] = REDACTED;
      else if (typeof item === 'string' && item.startsWith('-p=') && !/^-p=\d{1,5}$/.test(item)) out[i] = `-p=${REDACTED}`;
    }
    return out;
  }
  if (value === null || typeof value !== 'object') return value;
  // Own members only, "__proto__" kept a data member as the file's JSON.parse keeps it.
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) Object.defineProperty(out, key, { value: maskPortMappings((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
  return out;
}

/** The vectors file's text: stable, two-space indented, one trailing newline. */
export function digestVectorsText(vectors: readonly DigestVector[] = buildDigestVectors()): string {
  const file = {
    about:
      'effect-journal §11 test vectors. For each case a journal prepares `args` with `secretArgKeys`; the row it persists must carry `digest`, ' +
      'which is "v5:" + SHA-256 hex of the UTF-8 bytes of `canonical`, the RFC 8785 canonical JSON of `projection` (secret keys dropped, credential shapes masked), ' +
      'or the digest of one of its `alternatives`, the other readings the contract leaves open (each names its choice). ' +
      'Check a journal with `ejc vectors --cmd "..."` or `ejc vectors --impl adapter.mjs`. Generated from the reference journal by `npm run gen:vectors`.',
    version: 'v5',
    vectors,
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}
