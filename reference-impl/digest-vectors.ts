// The §11 digest test vectors, computed by the reference journal's own redaction and digest: what a journal in any
// language checks its projection against. `npm run gen:vectors` writes them to docs/digest-vectors.json.
import { argsCanonical, argsDigest } from './digest.js';
import { redactArgs } from './redact.js';
import { VECTOR_CASES, type VectorCase } from './vector-cases.js';

/** Where the vectors live, relative to the package root (shipped with docs/). */
export const VECTORS_FILE = 'docs/digest-vectors.json';

/** One vector: the input, the redacted projection, its canonical JSON and the `v5:` digest a prepare must persist. */
export interface DigestVector extends VectorCase {
  readonly projection: Record<string, unknown>;
  readonly canonical: string;
  readonly digest: string;
}

/** Every vector, computed now by the reference journal's redaction. */
export function buildDigestVectors(cases: readonly VectorCase[] = VECTOR_CASES): DigestVector[] {
  return cases.map((c) => {
    const projection = redactArgs(c.args, c.secretArgKeys);
    return { ...c, projection, canonical: argsCanonical(c.args, c.secretArgKeys), digest: argsDigest(c.args, c.secretArgKeys) };
  });
}

/** The vectors file's text: stable, two-space indented, one trailing newline. */
export function digestVectorsText(vectors: readonly DigestVector[] = buildDigestVectors()): string {
  const file = {
    about:
      'effect-journal §11 test vectors. For each case a journal prepares `args` with `secretArgKeys`; the row it persists must carry `digest`, ' +
      'which is "v5:" + SHA-256 hex of the UTF-8 bytes of `canonical`, the RFC 8785 canonical JSON of `projection` (secret keys dropped, credential shapes masked). ' +
      'Check a journal with `ejc vectors --cmd "..."` or `ejc vectors --impl adapter.mjs`. Generated from the reference journal by `npm run gen:vectors`.',
    version: 'v5',
    vectors,
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}
