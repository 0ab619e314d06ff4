// The adapter entry `effect-journal-conformance/journal` loads nothing of the harness: every driver imports it at start.
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { REPO } from './packed-consumer.js';

const DIST = resolve(REPO, 'dist');

// Static imports and re-exports only: a dynamic import() in this graph would hide a cost, so it is listed too.
const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Every compiled file reachable from `entry` (relative to dist/) and every package it names. */
function importGraph(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3] ?? '';
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
      else packages.add(spec);
    }
  };
  visit(resolve(DIST, entry));
  return { files: [...files].map((f) => relative(DIST, f)).sort(), packages: [...packages].sort() };
}

describe('effect-journal-conformance/journal, the entry adapters import', () => {
  it('is exported by package.json beside the main and vitest entries', () => {
    const pkg = JSON.parse(readFileSync(resolve(REPO, 'package.json'), 'utf8')) as { exports: Record<string, { default: string }> };
    expect(pkg.exports['./journal']?.default).toBe('./dist/journal.js');
  });

  it('exports the error class and the reference journal, the same JournalError the main entry exports', async () => {
    // Resolved by package name, as an adapter does (the package resolves itself through its exports map).
    const probe = `const j = await import('effect-journal-conformance/journal'); const m = await import('effect-journal-conformance');
console.log(JSON.stringify({ keys: Object.keys(j).sort(), same: j.JournalError === m.JournalError && j.createReferenceJournal === m.createReferenceJournal }));`;
    const run = await execa('node', ['--input-type=module', '-e', probe], { cwd: REPO });
    expect(JSON.parse(run.stdout)).toEqual({ keys: ['JournalError', 'createReferenceJournal'], same: true });
  });

  it('reaches only the journal interface, canonical JSON and the reference journal: no zod, execa, schemas or reports', () => {
    const { files, packages } = importGraph('journal.js');
    const outside = files.filter((f) => !/^(journal\.js|harness\/journal-interface\.js|shared\/canonical-json\.js|reference-impl\/(?:kxm\/)?[^/]+\.js)$/.test(f));
    expect(outside).toEqual([]);
    // Of packages, only the reference journal's own: better-sqlite3 and the SHA-256 of @noble/hashes (reference-impl/sha256.ts).
    expect(packages.filter((p) => !p.startsWith('node:') && p !== 'better-sqlite3' && p !== '@noble/hashes/sha2.js' && p !== '@noble/hashes/utils.js')).toEqual([]);
    // The walk itself works: the main entry's graph does reach the harness's dependencies.
    expect(importGraph('index.js').packages).toEqual(expect.arrayContaining(['zod', 'fast-check']));
  });

  it('is what the shipped adapters import', () => {
    for (const file of ['examples/minimal-adapter/adapter.mjs', 'examples/log-journal/journal.mjs']) {
      const source = readFileSync(resolve(REPO, file), 'utf8');
      expect(source, file).toContain("from 'effect-journal-conformance/journal'");
      expect(source, file).not.toMatch(/from 'effect-journal-conformance'/);
    }
  });
});
