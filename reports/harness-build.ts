// The harness's own identity by content: a SHA-256 over every compiled .js (and bundled .cjs) file of its build.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HarnessBuild } from './binding-schema.js';

/**
 * Hashes the build this code runs from (dist/, or the installed package's dist/). The digest is the
 * SHA-256 of a sha256sum listing ("<hex>  <path>\n" per file, paths relative to dist/, in byte
 * order), so a shell reproduces it:
 *   (cd dist && find . \( -name '*.js' -o -name '*.cjs' \) -type f | sed 's|^\./||' | LC_ALL=C sort | xargs sha256sum) | sha256sum
 */
export function harnessBuild(distDir: string = buildDir()): HarnessBuild {
  const cached = memo.get(distDir);
  if (cached !== undefined) return cached;
  const files = listJs(distDir)
    .map((f) => relative(distDir, f).split(sep).join('/'))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const listing = files.map((f) => `${createHash('sha256').update(readFileSync(join(distDir, f))).digest('hex')}  ${f}\n`).join('');
  const build: HarnessBuild = { algorithm: 'sha256', digest: createHash('sha256').update(listing).digest('hex'), files: files.length };
  memo.set(distDir, build);
  return build;
}

/** The compiled build's directory: this file's parent's parent when compiled, <root>/dist when run from sources. */
export function buildDir(): string {
  const here = fileURLToPath(import.meta.url);
  const root = dirname(dirname(here));
  return here.endsWith('.ts') ? join(root, 'dist') : root;
}

const memo = new Map<string, HarnessBuild>();

function listJs(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listJs(path));
    else if (entry.isFile() && (entry.name.endsWith('.js') || entry.name.endsWith('.cjs'))) out.push(path);
  }
  return out;
}
