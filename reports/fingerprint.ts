// The implementation fingerprint: every file that makes up the implementation under test, by SHA-256.
import { createHash } from 'node:crypto';
import { accessSync, constants, readFileSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { splitCommand } from '../shared/split-command.js';
import { canonicalJson, sha256Hex } from '../shared/canonical-json.js';
import { EjcError } from '../shared/errors.js';
import type { Fingerprint, FingerprintFile } from './binding-schema.js';
import { expandGlob } from './file-glob.js';
import type { Launch } from './schema.js';

/** The module name that stands for the bundled reference journal, portable across machines. */
export const REFERENCE_MODULE = 'ejc:reference';

/**
 * The adapter a reference fingerprint names: the one-module bundle drivers load when it is current, else the
 * compiled adapter with every module it imports (a bare `tsc` build). Either way, the files that ran.
 */
// adapter.bundle.js: the ES module bundle of earlier builds, so their reports still verify.
export const REFERENCE_ADAPTER_NAMES: readonly string[] = ['ejc:reference-impl/adapter.bundle.cjs', 'ejc:reference-impl/adapter.bundle.js', 'ejc:reference-impl/adapter.js'];

export interface FingerprintOptions {
  /** The invoking directory: relative paths on the command line and in globs start here. */
  readonly cwd: string;
  /** --impl-files globs: the files the implementation loads besides what the launch names. */
  readonly implFiles: readonly string[];
  /** For the bundled reference journal: its compiled adapter, whose relative imports are followed. */
  readonly referenceAdapter?: string;
}

/**
 * Fingerprints what `launch` runs. A module launch: the adapter file (the bundled reference: its
 * adapter and every module it imports). A command: the executable it resolves to on PATH and every
 * existing file named on the line. Plus every --impl-files match. Throws a usage error naming a glob
 * that matches nothing or a program that is not found.
 */
export function fingerprintLaunch(launch: Launch, options: FingerprintOptions): Fingerprint {
  const files = new Map<string, Omit<FingerprintFile, 'path'>>();
  const add = (absolute: string, role: FingerprintFile['role'], shown = displayPath(absolute, options.cwd)): void => {
    if (!files.has(shown)) files.set(shown, { role, ...hashFile(absolute) });
  };
  if (launch.kind === 'module' && options.referenceAdapter !== undefined) {
    const root = dirname(dirname(options.referenceAdapter));
    for (const file of importClosure(options.referenceAdapter)) add(file, file === options.referenceAdapter ? 'adapter' : 'loaded', `ejc:${relative(root, file).split(sep).join('/')}`);
  } else if (launch.kind === 'module') {
    add(resolve(options.cwd, launch.module), 'adapter');
  } else {
    const tokens = commandTokens(launch.command);
    const program = tokens.shift();
    if (program === undefined) throw new EjcError('usage', '--cmd is empty: give the command that starts your driver');
    add(resolveExecutable(program, options.cwd), 'executable');
    for (const token of tokens) {
      for (const candidate of [token, token.slice(token.indexOf('=') + 1)]) {
        const path = resolve(options.cwd, candidate);
        if (candidate !== '' && isFile(path)) add(path, 'argument');
      }
    }
  }
  for (const pattern of options.implFiles) for (const file of expandGlob(pattern, options.cwd)) add(file, 'loaded');
  return fingerprintOf([...files].map(([path, f]) => ({ path, ...f })));
}

/** A fingerprint over the given files: sorted by path, with the digest of their canonical JSON. */
export function fingerprintOf(files: readonly FingerprintFile[]): Fingerprint {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { algorithm: 'sha256', digest: fingerprintDigest(sorted), files: sorted };
}

/** The digest a fingerprint's files determine. */
export function fingerprintDigest(files: readonly FingerprintFile[]): string {
  return sha256Hex(canonicalJson(files));
}

// Tokens of the command as the shell would see them; leading `exec`, `env` and NAME=value words are not the program.
function commandTokens(command: string): string[] {
  let tokens: string[];
  try {
    tokens = splitCommand(command);
  } catch {
    // A command with shell operators still runs under sh -c; its words are still worth binding.
    tokens = command.split(/[\s;&|()<>]+/).map((t) => t.replace(/^['"]|['"]$/g, '')).filter((t) => t !== '');
  }
  while (tokens.length > 0 && (tokens[0] === 'exec' || tokens[0] === 'env' || /^[A-Za-z_][A-Za-z0-9_]*=/.test(tokens[0]!))) tokens.shift();
  return tokens;
}

function resolveExecutable(program: string, cwd: string): string {
  const candidates = program.includes('/') ? [resolve(cwd, program)] : (process.env['PATH'] ?? '').split(delimiter).filter((d) => d !== '').map((d) => join(isAbsolute(d) ? d : resolve(cwd, d), program));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      if (isFile(candidate)) return realpathSync(candidate);
    } catch {
      // not this one
    }
  }
  throw new EjcError('usage', `--cmd starts ${program}, which is ${program.includes('/') ? `not an executable file (relative to ${cwd})` : 'not on PATH'}: give the program your driver runs with`);
}

// The bundled adapter and the compiled modules it reaches by relative static imports.
function importClosure(entry: string): string[] {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || !isFile(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:^|[\s;])(?:import|export)\s[^'"]*?['"](\.{1,2}\/[^'"]+)['"]/gm)) queue.push(resolve(dirname(file), match[1]!));
  }
  return [...seen];
}

const hashes = new Map<string, { key: string; value: { sha256: string; bytes: number } }>();

function hashFile(path: string): { sha256: string; bytes: number } {
  const stat = statSync(path);
  const key = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
  const cached = hashes.get(path);
  if (cached?.key === key) return cached.value;
  const bytes = readFileSync(path);
  const value = { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
  hashes.set(path, { key, value });
  return value;
}

function displayPath(absolute: string, cwd: string): string {
  const rel = relative(cwd, absolute);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : absolute;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
