// heldCanaries answers, for a whole trial's canaries at once, exactly what holdsEncoded answers for each: on files that
// hold some of them plainly, encoded, compressed, lowercased, hashed or as a longer sibling's prefix, and others not.
import { createHash } from 'node:crypto';
import { deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { holdsEncoded } from '../../harness/world/canary-forms.js';
import { heldCanaries } from '../../harness/world/held-canaries.js';
import { createRng } from '../../harness/rng.js';
import { trialNonce, withNonce } from '../../shared/secrets/canary-nonce.js';

// The forms a journal might keep a canary in: each as holdsEncoded knows it.
const FORMS: ReadonlyArray<(c: string) => Buffer> = [
  (c) => Buffer.from(c),
  (c) => Buffer.from(Buffer.from(`{"token":"${c}"}`).toString('base64')),
  (c) => Buffer.from(Buffer.from(`x${c}`).toString('hex')),
  (c) => Buffer.from(c, 'utf16le'),
  (c) => deflateSync(Buffer.from(`args ${c} end`)),
  (c) => gzipSync(Buffer.from(c)),
  (c) => Buffer.from(c.toLowerCase()),
  (c) => Buffer.from(createHash('sha256').update(c).digest('hex')),
  (c) => Buffer.from(createHash('md5').update(JSON.stringify(c)).digest('hex').toUpperCase()),
  (c) => Buffer.from(Buffer.from(createHash('sha1').update(`Bearer ${c}`).digest()).toString('base64')),
  (c) => Buffer.from(c.slice(0, -1)),
];

// A trial's canaries as explore makes them (a nonce, a head, a counter ending in Z), plus two without a nonce.
function trialCanaries(count: number): string[] {
  const nonce = trialNonce();
  const out = Array.from({ length: count }, (_, i) => withNonce(`EJC-CANARY-t${i % 3}x${i.toString(36)}Z`, nonce));
  return [...out, 'EJC-CANARY-0.k3j9x1q2m0.p8w7e6r5t4', 'EJC-CANARY-plainword1234567Z'];
}

describe('heldCanaries', () => {
  it('agrees with holdsEncoded, canary by canary, on 30 generated files', () => {
    const rng = createRng(7);
    let found = 0;
    let missed = 0;
    for (let file = 0; file < 30; file++) {
      const canaries = trialCanaries(20 + rng.int(120));
      const parts: Buffer[] = [Buffer.from('SQLite-ish page header \x00\x01\x02')];
      for (let k = rng.int(6); k > 0; k--) {
        // Canary 2 lowercased is the start of canary 2z… (the sibling rule): both are planted sometimes.
        const c = canaries[rng.int(canaries.length)]!;
        parts.push(FORMS[rng.int(FORMS.length)]!(c), Buffer.from(rng.id('filler')));
      }
      parts.push(Buffer.from('deadbeef'.repeat(rng.int(40))));
      const data = Buffer.concat(parts);
      const batch = heldCanaries(data, canaries);
      const single = canaries.map((c) => holdsEncoded(data, c, undefined, canaries));
      expect(batch, `file ${file}`).toEqual(single);
      found += single.filter(Boolean).length;
      missed += single.filter((h) => !h).length;
    }
    // Both answers occur, so agreement is not two functions that say false (or true) to everything.
    expect(found).toBeGreaterThan(30);
    expect(missed).toBeGreaterThan(500);
  });

  it('asks only the canaries named, the others reading false', () => {
    const canaries = trialCanaries(10);
    const data = Buffer.from(`${canaries[1]} ${canaries[4]}`);
    expect(heldCanaries(data, canaries, undefined, [4, 5]).flatMap((h, i) => (h ? [i] : []))).toEqual([4]);
  });
});
