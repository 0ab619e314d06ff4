// docs/digest-vectors.json: generated from the reference journal's redaction, not stale, internally consistent by an
// independent canonicalizer and hash, shipped in the package, and covering every shape §11 names.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { digestVectorsText, VECTORS_FILE } from '../../reference-impl/digest-vectors.js';
import { argsDigest, redactArgs } from '../../reference-impl/index.js';
import { readVectorFile, DEFAULT_VECTORS_PATH } from '../../harness/vectors/vector-file.js';
import { firstDifference, markDifference } from '../../reports/string-diff.js';

const ROOT = join(import.meta.dirname, '..', '..');
const text = readFileSync(join(ROOT, VECTORS_FILE), 'utf8');
const file = JSON.parse(text) as { vectors: Array<{ name: string; covers: string; args: Record<string, unknown>; secretArgKeys: string[]; projection: Record<string, unknown>; canonical: string; digest: string; alternatives?: Array<{ choice: string; canonical: string; digest: string }> }> };

describe('docs/digest-vectors.json', () => {
  it('is what the reference journal computes now (run npm run gen:vectors after changing the redaction)', () => {
    expect(text).toBe(digestVectorsText());
  });

  it.each(file.vectors.map((v) => [v.name, v] as const))('%s: projection, canonical JSON and digest agree by an independent canonicalizer and hash', (_name, v) => {
    // The args as read from the file (JSON.parse keeps "__proto__" an own member), through the reference's redaction.
    expect(redactArgs(v.args, v.secretArgKeys)).toEqual(v.projection);
    expect(canonicalize(v.projection)).toBe(v.canonical);
    expect(v.digest).toBe(`v5:${createHash('sha256').update(v.canonical, 'utf8').digest('hex')}`);
    expect(argsDigest(v.args, v.secretArgKeys)).toBe(v.digest);
    for (const a of v.alternatives ?? []) {
      expect(a.digest, a.choice).toBe(`v5:${createHash('sha256').update(a.canonical, 'utf8').digest('hex')}`);
      expect(a.digest, a.choice).not.toBe(v.digest);
    }
  });

  it('gives the other reading of a port mapping after -p, and only where it differs', () => {
    const withOthers = file.vectors.filter((v) => (v.alternatives ?? []).some((a) => a.choice.includes('after -p')));
    expect(withOthers.map((v) => v.name)).toEqual(['the -p port exception']);
    expect(withOthers[0]!.alternatives![0]!.canonical).toContain('"-p","[redacted]","img"');
    expect(withOthers[0]!.alternatives![0]!.canonical).toContain('"-p",2222');
  });

  it('gives the other reading of an unnamed credential-looking key (pin) wherever a vector holds one, at any depth', () => {
    const withPin = file.vectors.filter((v) => (v.alternatives ?? []).some((a) => a.choice.startsWith('a key named pin')));
    expect(withPin.map((v) => v.name)).toEqual(['declared secret key is top-level only', 'unlabelled secrets stay public']);
    expect(withPin[0]!.alternatives![0]!.canonical).toBe('{"outer":{"pin":"[redacted]"}}');
    expect(withPin[1]!.alternatives![0]!.canonical).toContain('"pin":"[redacted]"');
  });

  it('keeps "__proto__" an own data member of args and projection, as read from the file', () => {
    const top = file.vectors.find((v) => v.name === '__proto__ at the top level')!;
    expect(Object.keys(top.args)).toContain('__proto__');
    expect(Object.getPrototypeOf(top.args)).toBe(Object.prototype);
    expect(top.canonical.startsWith('{"__proto__":{"password":"[redacted]"')).toBe(true);
  });

  it('covers every shape §11 names, and the corners of canonical JSON', () => {
    const all = file.vectors.map((v) => v.canonical).join('\n');
    const covered = file.vectors.map((v) => v.covers).join('\n');
    for (const phrase of ['secretArgKeys', 'structural credential key', 'Bearer, Basic or Token', 'URL userinfo', 'URL-query values', 'longer than 512', 'escaped quotes', 'credential suffix', '--token=value', '-p spelling', 'unlabelled secrets', 'long string tails', '__proto__', 'UTF-16 code unit', 'number forms', 'escaped only where JSON must']) {
      expect(covered, phrase).toContain(phrase);
    }
    for (const masked of ['"Bearer [redacted]"', '"Basic [redacted]"', '"Token [redacted]"', 'https://[redacted]@db.example.com', 'sig=[redacted]&next=1', '"--token","[redacted]"', '"--password=[redacted]"', '"-p","8080:80"', '"-p","[redacted]"', '1e+21', '5e-324']) {
      expect(all, masked).toContain(masked);
    }
    expect(new Set(file.vectors.map((v) => v.name)).size).toBe(file.vectors.length);
  });

  it('is shipped: docs/ is in package.json files, and the CLI finds it where it is installed', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('docs');
    expect(DEFAULT_VECTORS_PATH).toBe(join(ROOT, VECTORS_FILE));
    expect((await readVectorFile()).vectors.length).toBe(file.vectors.length);
  });
});

describe('markDifference', () => {
  it('puts a caret under the first differing character, with the same prefix above it', () => {
    const lines = markDifference('{"a":1,"b":2}', '{"b":2,"a":1}');
    expect(firstDifference('{"a":1,"b":2}', '{"b":2,"a":1}')).toBe(2);
    expect(lines[0]).toBe('first difference at character 2 (of 13 expected, 13 actual):');
    expect(lines[3]!.indexOf('^')).toBe(lines[2]!.indexOf('b'));
    expect(markDifference('same', 'same')).toEqual([]);
    // A longer string that only extends the other differs where the shorter ends; control characters stay on one line.
    expect(firstDifference('ab', 'abc')).toBe(2);
    expect(markDifference('x\ny', 'x\nz')[1]).toBe('  expected: x\\u000ay');
  });
});
