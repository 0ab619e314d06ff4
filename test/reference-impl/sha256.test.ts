// The reference journal's SHA-256 (JS first, node:crypto in a long session) is the harness's node:crypto SHA-256 of the same UTF-8 bytes.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex as harnessSha256Hex } from '../../shared/canonical-json.js';
import { hashPath, sha256Hex } from '../../reference-impl/sha256.js';

describe('reference sha256Hex', () => {
  it('hashes in JS for a short session and with node:crypto after 64 hashes, the same answers either way', () => {
    const node = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');
    expect(hashPath()).toBe('js');
    for (let i = 0; i < 64; i++) expect(sha256Hex(`short ${i} \u00e9\ud83d\ude00`)).toBe(node(`short ${i} \u00e9\ud83d\ude00`));
    expect(hashPath()).toBe('native');
    for (let i = 0; i < 8; i++) expect(sha256Hex(`long ${i} \ud800`)).toBe(node(`long ${i} \ufffd`));
    expect(hashPath()).toBe('native');
  });

  it('answers the FIPS 180-2 example digests', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('equals node:crypto on any string, lone surrogates (hashed as U+FFFD) and block boundaries included', () => {
    const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 200 }), fc.integer({ min: 50, max: 130 }).map((n) => 'x'.repeat(n)));
    fc.assert(
      fc.property(text, (s) => {
        expect(sha256Hex(s)).toBe(createHash('sha256').update(s, 'utf8').digest('hex'));
        expect(sha256Hex(s)).toBe(harnessSha256Hex(s));
      }),
      { seed: 14, numRuns: 400 },
    );
    expect(sha256Hex('\ud800')).toBe(createHash('sha256').update('\ufffd').digest('hex'));
  });
});
