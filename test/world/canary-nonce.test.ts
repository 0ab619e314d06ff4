// Canaries are unique to their trial and harness process, yet named by their seeded part alone (reports repeat per seed).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { canaryId, seededPart, trialNonce, withNonce } from '../../shared/secrets/canary-nonce.js';
import { makeCanary } from '../../harness/world/byte-scan.js';
import { canaryLabel, maskText } from '../../shared/secrets/mask.js';
import { createRng } from '../../harness/rng.js';
import { root } from '../harness/helpers.js';

const seeded = (nonce: string): string => {
  const rng = createRng(7);
  return makeCanary(() => rng.next(), nonce);
};

describe('canary nonces', () => {
  it('two trials of the same seed plant different bytes with the same label, id and seeded part', () => {
    const [a, b] = [seeded(trialNonce()), seeded(trialNonce())];
    expect(a).not.toBe(b);
    expect(seededPart(a!)).toBe(seededPart(b!));
    expect(canaryId(a!)).toBe(canaryId(b!));
    expect(canaryLabel(a!)).toBe(canaryLabel(b!));
    // The masks still recognise the shape, and name it by the label.
    expect(maskText(`x ${a} y`)).toBe(`x [masked ${canaryLabel(a!)}] y`);
    expect(seededPart(a!)).toBe(seeded(''));
  });

  it('another harness process draws another nonce, and names its canaries alike', () => {
    const script = `import('${root}/dist/shared/secrets/canary-nonce.js').then((m) => console.log(m.trialNonce(), m.canaryId(m.withNonce('EJC-CANARY-0.seed1Z', m.trialNonce()))))`;
    const [nonceA, idA] = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim().split(' ');
    const [nonceB, idB] = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim().split(' ');
    expect(nonceA).toMatch(/^N[0-9A-Z]{14}$/);
    expect(nonceA!.slice(0, 11)).not.toBe(nonceB!.slice(0, 11));
    expect(idA).toBe(idB);
    expect(idA).toBe(canaryId(withNonce('EJC-CANARY-0.seed1Z', trialNonce())));
  });
});
