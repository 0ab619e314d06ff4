// The masked writers of reading matter (transcripts, HTML, step summaries, annotations), on the one masker in secrets/mask.
import { appendFile } from 'node:fs/promises';
import { writeArtifact } from '../reports/write-report.js';
import { maskText } from '../shared/secrets/mask.js';

export { maskText };

/** What a declared secret argument in a wire line reads as. */
export const MASK = '[masked]';

/**
 * A protocol line with the declared secret arguments masked (any object carrying `args` and
 * `secretArgKeys`, the shape of prepare), then every canary; a line that is not JSON only loses its canaries.
 */
export function maskWireLine(line: string): string {
  // Only a line that declares secrets is re-serialized; every other line keeps its exact bytes.
  if (!line.includes('"secretArgKeys"')) return maskText(line);
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return maskText(line);
  }
  return maskText(JSON.stringify(maskDeclared(value)));
}

/** Writes the masked text to `path` atomically. */
export async function writeMasked(path: string, text: string): Promise<void> {
  await writeArtifact(path, maskText(text));
}

/** Appends the masked text to `path` (for files other steps also append to, like $GITHUB_STEP_SUMMARY). */
export async function appendMasked(path: string, text: string): Promise<void> {
  await appendFile(path, maskText(text));
}

/** Writes the masked text to a stream. */
export function printMasked(stream: NodeJS.WritableStream, text: string): void {
  stream.write(maskText(text));
}

function maskDeclared(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskDeclared);
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const secretKeys = Array.isArray(record['secretArgKeys']) ? record['secretArgKeys'].filter((k): k is string => typeof k === 'string') : [];
  // fromEntries defines own properties, so a "__proto__" key in a line stays data.
  return Object.fromEntries(
    Object.entries(record).map(([k, v]) => {
      if (k === 'args' && secretKeys.length > 0 && v !== null && typeof v === 'object' && !Array.isArray(v)) {
        return [k, Object.fromEntries(Object.entries(v).map(([ak, av]) => [ak, secretKeys.includes(ak) ? MASK : maskDeclared(av)]))];
      }
      return [k, maskDeclared(v)];
    }),
  );
}
