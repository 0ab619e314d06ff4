// The encoded forms of a canary find it inside larger data re-encoded as base64, base64url, hex or UTF-16, at every
// alignment, and never in unrelated bytes.
import { describe, expect, it } from 'vitest';
import { holdsEncoded } from '../../harness/world/canary-forms.js';

const CANARY = 'EJC-CANARY-0.k3j9x1q2m0.p8w7e6r5t4';

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
});
