// A CommonJS adapter loaded with the V8 code cache the build wrote beside it, when that cache is for exactly this file.
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/** The cache's name beside the module, and the header line that ties it to one build of the module. */
export const CODE_CACHE_SUFFIX = '.v8cache';
export interface CodeCacheHeader {
  readonly size: number;
  readonly mtimeMs: number;
  readonly node: string;
}

/**
 * The module's exports, loaded as require() would (the CommonJS wrapper, a require() from its own directory) but with
 * the functions a driver runs already compiled: ~5 ms of a reference driver's start-up CPU, a tenth. Undefined when
 * there is no cache, or it was written for another file size, modification time or node version: V8 checks only its
 * own version, flags and the source's length, so a stale cache must never reach it. A cache V8 refuses anyway is
 * simply not used (the source compiles as without one).
 */
export function requireWithCodeCache(modulePath: string): unknown {
  const cache = readCache(modulePath);
  if (cache === undefined) return undefined;
  const source = readFileSync(modulePath, 'utf8');
  const script = new Script(wrap(source), { filename: modulePath, cachedData: cache });
  const module = { exports: {} as unknown, filename: modulePath, id: modulePath, loaded: false };
  const fn = script.runInThisContext() as (this: unknown, ...args: unknown[]) => void;
  fn.call(module.exports, module.exports, createRequire(modulePath), module, modulePath, dirname(modulePath));
  module.loaded = true;
  return module.exports;
}

/** The header the build writes (one JSON line) for the module as it is now. */
export function codeCacheHeader(modulePath: string): CodeCacheHeader {
  const stat = statSync(modulePath);
  return { size: stat.size, mtimeMs: stat.mtimeMs, node: process.version };
}

/** The CommonJS wrapper node's require() compiles a module in: the same function, so the cache the build made fits. */
export function wrap(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;
}

function readCache(modulePath: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(`${modulePath}${CODE_CACHE_SUFFIX}`);
  } catch {
    return undefined;
  }
  const newline = bytes.indexOf(10);
  if (newline === -1) return undefined;
  let header: Partial<CodeCacheHeader>;
  try {
    header = JSON.parse(bytes.toString('utf8', 0, newline)) as Partial<CodeCacheHeader>;
  } catch {
    return undefined;
  }
  const now = codeCacheHeader(modulePath);
  if (header.size !== now.size || header.mtimeMs !== now.mtimeMs || header.node !== now.node) return undefined;
  return bytes.subarray(newline + 1);
}
