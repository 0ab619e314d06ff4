// `ejc vectors` against real journals through the protocol: the reference, the Python and the log-journal examples match
// every §11 vector; a broken digest is caught with both canonical strings and the first difference marked.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dir } from 'tmp-promise';
import { describe, expect, it } from 'vitest';
import { ejc } from './ejc-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VECTORS = (JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(join(ROOT, 'docs/digest-vectors.json'), 'utf8'))) as { vectors: unknown[] }).vectors.length;

describe('ejc vectors', () => {
  it.each([
    ['the reference journal', [] as string[], 'ejc-reference-journal'],
    ['examples/python-journal', ['--cmd', `python3 ${join(ROOT, 'examples/python-journal/journal.py')}`], 'ejc-python-journal'],
    ['examples/log-journal', ['--impl', join(ROOT, 'examples/log-journal/journal.mjs')], 'ejc-log-journal'],
    // The other reading of a port mapping after -p that docs/protocol.md allows matches the vector's alternative.
    ['a journal that masks port mappings after -p', ['--impl', join(ROOT, 'test/fixtures/allowed/allowed-journal.mjs'), '--impl-option', 'variant=narrow-port-shape'], 'allowed:narrow-port-shape'],
  ])('%s matches every vector (exit 0)', async (_name, flags, journalName) => {
    const r = await ejc(['vectors', ...flags]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${journalName} 0.1.0: ${VECTORS} of ${VECTORS} §11 digest vectors match`);
    expect(r.stdout).not.toContain('MISMATCH');
  });

  it('catches a digest canonical only at the top level: exit 1, both canonical strings, the first difference marked', async () => {
    const r = await ejc(['vectors', '--impl', join(ROOT, 'test/broken/realistic/digest-sorts-top-level.mjs'), '--only', 'nested credential keys', '--only', 'numbers']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stdout).toContain('1 of 2 §11 digest vectors match');
    expect(r.stdout).toContain('  MISMATCH nested credential keys');
    expect(r.stdout).toContain('expected canonical: {"request":{"headers":{"Accept":"application/json","Authorization":"[redacted]"}');
    expect(r.stdout).toContain('journal\'s canonical: {"request":{"headers":{"Authorization":"[redacted]","Accept":"application/json"}');
    expect(r.stdout).toContain('first difference at character 25 (of 129 expected, 129 actual):');
    const lines = r.stdout.split('\n');
    const actual = lines.findIndex((l) => l.includes('  actual:   {"request"'));
    // "Accept" and "Authorization" share their first letter: the caret is under the u.
    expect(lines[actual + 1]!.indexOf('^')).toBe(lines[actual]!.indexOf('Authorization') + 1);
    // Top-level keys are sorted by that journal, so a flat vector matches: only the nesting is wrong.
    expect(r.stdout).toContain('  ok       numbers');
  });

  it('catches a redactor that skips arrays, and says how to see the projection when a journal does not expose it', async () => {
    const r = await ejc(['vectors', '--impl', join(ROOT, 'test/broken/realistic/redaction-skips-arrays.mjs'), '--only', 'credential flags in an argument vector']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/journal's canonical: \{"argv":\["deploy","--token","abc"/);
    // A vector with another allowed reading names it and its digest beside the expected one.
    const port = await ejc(['vectors', '--impl', join(ROOT, 'test/broken/realistic/redaction-skips-arrays.mjs'), '--only', 'the -p port exception']);
    expect(port.exitCode).toBe(1);
    expect(port.stdout).toMatch(/or, a port mapping or range after -p read as a secret \(only a bare port number kept\): v5:[0-9a-f]{64}/);
    const log = await ejc(['vectors', '--impl', join(ROOT, 'test/broken/realistic/digest-sorts-top-level.mjs'), '--cmd', 'x']);
    expect(log.exitCode).toBe(3);
  });

  it('a digest scenario that fails shows the two canonical projections and marks the first difference (terminal and JUnit)', async () => {
    const tmp = await dir({ unsafeCleanup: true });
    try {
      const junit = join(tmp.path, 'junit.xml');
      const r = await ejc(['run', '--impl', join(ROOT, 'test/broken/realistic/digest-sorts-top-level.mjs'), '--scenario', 'digest.persisted-form', '--junit', junit]);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stdout).toContain('✗ canonical projection behind argsDigest of workload 2');
      expect(r.stdout).toContain('first difference at character 38 (of 110 expected, 110 actual):');
      expect(r.stdout).toContain('expected: …count":3,"flags":[3,1,2],"nested":{"a":null,"b":true,"z":[]}');
      expect(r.stdout).toContain('actual:   …count":3,"flags":[3,1,2],"nested":{"b":true,"a":null,"z":[]}');
      // Two digests differ everywhere: no caret under them.
      expect(r.stdout).not.toContain('first difference at character 3 ');
      const xml = await import('node:fs/promises').then((fs) => fs.readFile(junit, 'utf8'));
      expect(xml).toContain('first difference at character 38');
    } finally {
      await tmp.cleanup();
    }
  });

  it('refuses a file that is not a vectors file, and an unknown --only, with a usage error', async () => {
    const tmp = await dir({ unsafeCleanup: true });
    try {
      const bad = join(tmp.path, 'bad.json');
      await writeFile(bad, JSON.stringify({ version: 'v5', vectors: [{ name: 'x' }] }));
      const r = await ejc(['vectors', '--file', bad]);
      expect(r.exitCode).toBe(3);
      expect(r.stderr).toMatch(/is not a vectors file: (about|vectors\.0\.\w+): /);
      const only = await ejc(['vectors', '--only', 'no such vector']);
      expect(only.exitCode).toBe(3);
      expect(only.stderr).toContain('--only names no vector: "no such vector"');
    } finally {
      await tmp.cleanup();
    }
  });
});
