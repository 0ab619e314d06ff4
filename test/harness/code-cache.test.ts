// The host loads a CommonJS adapter with the build's V8 code cache only while that cache was made for exactly that file.
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CODE_CACHE_SUFFIX, codeCacheHeader, requireWithCodeCache, wrap } from '../../harness/driver/code-cache.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ejc-code-cache-test-'));
  file = join(dir, 'adapter.cjs');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function writeModule(answer: string, mtime: number): void {
  writeFileSync(file, `module.exports = { answer: () => '${answer}', file: __filename, viaRequire: require('node:path').basename(__dirname) };\n`);
  utimesSync(file, mtime, mtime);
}

function writeCache(header = codeCacheHeader(file), data?: Buffer): void {
  const cache = data ?? new Script(wrap(`module.exports = { answer: () => 'cached' };\n`), { filename: file }).createCachedData();
  writeFileSync(`${file}${CODE_CACHE_SUFFIX}`, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), cache]));
}

describe('requireWithCodeCache', () => {
  it('loads the module as require() would (exports, __filename, a require from its directory) with a cache made for it', () => {
    writeModule('one', 1_000);
    const script = new Script(wrap(`module.exports = { answer: () => 'one', file: __filename, viaRequire: require('node:path').basename(__dirname) };\n`), { filename: file });
    writeCache(codeCacheHeader(file), script.createCachedData());
    expect(requireWithCodeCache(file)).toMatchObject({ file, viaRequire: dir.split('/').pop() });
    expect((requireWithCodeCache(file) as { answer: () => string }).answer()).toBe('one');
  });

  it('is undefined without a cache, or with one written for another modification time, size or node version', () => {
    writeModule('one', 1_000);
    expect(requireWithCodeCache(file)).toBeUndefined();
    const header = codeCacheHeader(file);
    // The same length, other code: V8 would take a cache for it (it checks only the length), so the header must not.
    writeModule('two', 2_000);
    writeCache(header);
    expect(requireWithCodeCache(file)).toBeUndefined();
    writeCache({ ...codeCacheHeader(file), size: header.size + 1 });
    expect(requireWithCodeCache(file)).toBeUndefined();
    writeCache({ ...codeCacheHeader(file), node: 'v0.0.0' });
    expect(requireWithCodeCache(file)).toBeUndefined();
    writeFileSync(`${file}${CODE_CACHE_SUFFIX}`, 'not a header');
    expect(requireWithCodeCache(file)).toBeUndefined();
  });

  it('runs the file as it is when V8 refuses the cache bytes', () => {
    writeModule('two', 2_000);
    writeCache(codeCacheHeader(file), Buffer.from('garbage, not a code cache'));
    expect((requireWithCodeCache(file) as { answer: () => string }).answer()).toBe('two');
  });
});
