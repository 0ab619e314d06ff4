// The §11 test vectors file (docs/digest-vectors.json): where it is, its shape, and reading it with a clear error.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { EjcError } from '../../shared/errors.js';

/** The shipped vectors: compiled to dist/harness/vectors/ (run from source under vitest), docs/ is at the package root. */
export const DEFAULT_VECTORS_PATH = fileURLToPath(new URL(`${import.meta.url.includes('/dist/') ? '../../../' : '../../'}docs/digest-vectors.json`, import.meta.url));

export const DigestVectorEntry = z.object({
  name: z.string().min(1),
  covers: z.string(),
  args: z.record(z.string(), z.unknown()),
  secretArgKeys: z.array(z.string()),
  projection: z.record(z.string(), z.unknown()),
  canonical: z.string(),
  digest: z.string().regex(/^v5:[0-9a-f]{64}$/),
  // Other readings the contract leaves open (a port mapping after -p read as a secret): any of their digests matches too.
  alternatives: z.array(z.object({ choice: z.string().min(1), canonical: z.string(), digest: z.string().regex(/^v5:[0-9a-f]{64}$/) })).optional(),
});
export type DigestVectorEntry = z.infer<typeof DigestVectorEntry>;
export const DigestVectorFile = z.object({ about: z.string(), version: z.literal('v5'), vectors: z.array(DigestVectorEntry).min(1) });
export type DigestVectorFile = z.infer<typeof DigestVectorFile>;

/** Reads and checks a vectors file; a missing or malformed one is an EjcError naming the path and the field. */
export async function readVectorFile(path: string = DEFAULT_VECTORS_PATH): Promise<DigestVectorFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new EjcError('usage', `cannot read the vectors file ${path}: ${(error as Error).message}`, { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new EjcError('usage', `${path} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  const checked = DigestVectorFile.safeParse(parsed);
  if (!checked.success) {
    const first = checked.error.issues[0];
    throw new EjcError('usage', `${path} is not a vectors file: ${first === undefined ? 'invalid' : `${first.path.join('.') || '(root)'}: ${first.message}`}`);
  }
  // The checked copy is not returned: a record rebuilt by assignment would turn an own "__proto__" member into a prototype.
  return parsed as DigestVectorFile;
}
