// Which build of the host driver drivers start: the one-file CommonJS bundle `npm run build` writes, unless it is stale.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The bundle's name next to host.js, and the list of the compiled files it was built from, written beside it. */
export const HOST_BUNDLE = 'host.bundle.cjs';
export const HOST_BUNDLE_INPUTS = 'host.bundle.inputs.json';

/**
 * The bundle next to the compiled host when it is at least as new as every file it was built from; null when it, or
 * its list of inputs, is missing or stale (e.g. after a bare `tsc`), so a driver never runs older code than the
 * sources compiled. Why a bundle: node starts a CommonJS main without its ES module loader (fs/promises, streams,
 * readline and the loader itself), and one file instead of six; that is about a tenth of a driver's start-up CPU.
 */
export function currentHostBundle(hostPath: string): string | null {
  const dir = dirname(hostPath);
  const bundle = join(dir, HOST_BUNDLE);
  const built = mtimeOf(bundle);
  if (built === null) return null;
  let inputs: unknown;
  try {
    inputs = JSON.parse(readFileSync(join(dir, HOST_BUNDLE_INPUTS), 'utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(inputs) || inputs.length === 0 || !inputs.every((i) => typeof i === 'string')) return null;
  return inputs.every((input: string) => (mtimeOf(resolve(dir, input)) ?? Number.POSITIVE_INFINITY) <= built) ? bundle : null;
}

function mtimeOf(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}
