// Expanding an --impl-files glob to the regular files it names, in a deterministic order.
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { EjcError } from '../shared/errors.js';

/**
 * The absolute paths of the regular files `pattern` matches, resolved against `cwd`, sorted.
 * `*` and `?` stay inside one path segment, `**` spans any number of them, `{a,b}` is either.
 * node_modules and .git are entered only when the pattern names them. No match is a usage error.
 */
export function expandGlob(pattern: string, cwd: string): string[] {
  const absolute = isAbsolute(pattern) ? pattern : join(cwd, pattern);
  const segments = absolute.split('/');
  const firstGlob = segments.findIndex((s) => /[*?{[]/.test(s));
  if (firstGlob === -1) {
    if (!isFile(absolute)) throw noMatch(pattern, cwd);
    return [resolve(absolute)];
  }
  const base = segments.slice(0, firstGlob).join('/') || '/';
  const regex = globToRegExp(segments.slice(firstGlob).join('/'));
  const enterHidden = (name: string): boolean => !SKIPPED.has(name) || pattern.includes(name);
  const found = walk(base, enterHidden)
    .filter((file) => regex.test(relative(base, file).split(sep).join('/')))
    .sort(compareCodeUnits);
  if (found.length === 0) throw noMatch(pattern, cwd);
  return found;
}

/** A path glob as an anchored regular expression over `/`-separated relative paths. */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${globBody(glob)}$`);
}

function globBody(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      out += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') {
      const close = glob.indexOf('}', i);
      if (close === -1) throw new EjcError('usage', `--impl-files ${glob}: a { is not closed`);
      out += `(?:${glob.slice(i + 1, close).split(',').map(globBody).join('|')})`;
      i = close;
    } else out += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return out;
}

const SKIPPED = new Set(['node_modules', '.git']);

function walk(dir: string, enter: (name: string) => boolean): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (enter(entry.name)) files.push(...walk(path, enter));
    } else if (entry.isFile() || (entry.isSymbolicLink() && isFile(path))) {
      files.push(path);
    }
  }
  return files;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function noMatch(pattern: string, cwd: string): EjcError {
  return new EjcError('usage', `--impl-files ${pattern} matches no file (relative paths start at ${cwd}); name the files your implementation loads, e.g. --impl-files 'src/**/*.js'`);
}
