// The encoded forms of a canary find it inside larger data re-encoded as base64, base64url, hex or UTF-16, at every
// alignment, and never in unrelated bytes.
import { deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { holdsEncoded } from '../../harness/world/canary-forms.js';

const CANARY = 'EJC-CANARY-0.k3j9x1q2m0.p8w7e6r5t4';
// The shape canaries have now: a nonce and a seeded part, one alphanumeric word after the prefix.
const WORD = 'EJC-CANARY-NQ0X7ZK2M4L9A0003k3j9x1q2m0p8Z';

describe('encodedForms', () => {
  for (const prefix of ['', 'a', 'ab', 'abc', '{"args":{"apiToken":"']) {
    const data = Buffer.from(`${prefix}${CANARY}","amount":42}`);
    it(`finds the canary after ${prefix.length} prefix bytes in every encoding`, () => {
      for (const encoded of [data.toString('base64'), data.toString('base64url'), data.toString('hex'), data.toString('hex').toUpperCase()]) {
        expect(holdsEncoded(Buffer.from(`x${encoded}y`), CANARY), encoded).toBe(true);
      }
      const utf16 = Buffer.from(data.toString('utf8'), 'utf16le');
      for (const bytes of [utf16, Buffer.from(utf16).swap16(), Buffer.concat([Buffer.from('z'), utf16])]) expect(holdsEncoded(bytes, CANARY)).toBe(true);
    });
  }

  it('does not match another canary or the plain bytes of an unrelated value', () => {
    const other = Buffer.from('EJC-CANARY-0.k3j9x1q2m0.p8w7e6r5t5').toString('base64');
    expect(holdsEncoded(Buffer.from(other), CANARY)).toBe(false);
    expect(holdsEncoded(Buffer.from('nothing here at all, not even close to it'), CANARY)).toBe(false);
    // A fragment is not the canary: only its whole bytes count.
    expect(holdsEncoded(Buffer.from(Buffer.from(CANARY.slice(0, -1)).toString('base64')), CANARY)).toBe(false);
  });

  it('finds a canary in a zlib or gzip stream inside other bytes, and its random part lowercased or in a tokenizer\'s words', () => {
    const record = Buffer.from(`{"args":{"url":"https://svc:${WORD}@h.invalid/"}}`);
    for (const stream of [deflateSync(record), gzipSync(record)]) {
      expect(holdsEncoded(Buffer.concat([Buffer.from('page header \x00\x01'), stream, Buffer.from('rest of the page')]), WORD)).toBe(true);
    }
    expect(holdsEncoded(Buffer.from(`post https://svc:${WORD.toLowerCase()}@h.invalid/`), WORD)).toBe(true);
    // A full-text index keeps words: the prefix split off at its dashes, the random part lowercased, its own term.
    expect(holdsEncoded(Buffer.from(`\x00\x03ejc\x00\x06canary\x00\x1d${WORD.slice('EJC-CANARY-'.length).toLowerCase()}\x00`), WORD)).toBe(true);
    expect(holdsEncoded(gzipSync(Buffer.from(WORD.toUpperCase())), WORD)).toBe(true);
  });

  it('does not take the prefix, another canary\'s random part or a truncated one for the canary', () => {
    const random = WORD.slice('EJC-CANARY-'.length).toLowerCase();
    expect(holdsEncoded(Buffer.from('ejc canary and nothing else'), WORD)).toBe(false);
    expect(holdsEncoded(Buffer.from(random.slice(0, -1)), WORD)).toBe(false);
    expect(holdsEncoded(deflateSync(Buffer.from(`${random.slice(0, -1)}y`)), WORD)).toBe(false);
  });

  it('does not take a sibling canary whose lowercased random part starts with this one\'s for it', () => {
    // Explore's canaries end in Z after a base-36 counter: lowercased, canary 2 (…x2Z) is the start of canary 107 (…x2zZ).
    const two = 'EJC-CANARY-NYQ3NNGX1CD00021gqp5nx2Z';
    const later = 'EJC-CANARY-NYQ3NNGX1CD00021gqp5nx2zZ';
    const legit = Buffer.from(`{"modelValue":"${later}","summary":"legacy"}`);
    expect(holdsEncoded(legit, later, undefined, [two, later])).toBe(true);
    expect(holdsEncoded(legit, two, undefined, [two, later]), 'the later canary\'s bytes are not the earlier one').toBe(false);
    // The earlier canary lowercased on its own is still found, beside the later one or alone.
    expect(holdsEncoded(Buffer.from(`${legit.toString()} ${two.toLowerCase()}`), two, undefined, [two, later])).toBe(true);
    expect(holdsEncoded(Buffer.from(two.toLowerCase()), two, undefined, [two, later])).toBe(true);
  });
});
