// Which build of the reference adapter drivers load: the one-module bundle `npm run build` writes, unless it is stale.
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The bundle's name: CommonJS, which the host require()s without starting node's ES module loader. */
export const REFERENCE_BUNDLE = 'adapter.bundle.cjs';

/**
 * The bundle next to the compiled adapter when it is at least as new as every compiled file it was built from
 * (the reference journal's and the two harness files it imports); null when missing or stale, e.g. after a bare
 * `tsc`, so a driver never runs older code than the sources compiled.
 */
export function currentBundle(adapterPath: string): string | null {
  const dir = dirname(adapterPath);
  const bundle = join(dir, REFERENCE_BUNDLE);
  const built = mtimeOf(bundle);
  if (built === null) return null;
  const sources = [
    // adapter.bundle.js: the ES module bundle an older build left in dist/, no input of this one.
    ...readdirSync(dir).filter((f) => f.endsWith('.js') && f !== 'adapter.bundle.js').map((f) => join(dir, f)),
    ...jsFiles(join(dir, 'kxm')),
    join(dir, '..', 'harness', 'journal-interface.js'),
    join(dir, '..', 'shared', 'canonical-json.js'),
  ];
  return sources.every((source) => (mtimeOf(source) ?? Number.POSITIVE_INFINITY) <= built) ? bundle : null;
}

function jsFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter((f) => f.endsWith('.js')).map((f) => join(dir, f));
  } catch {
    return [];
  }
}

function mtimeOf(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}
