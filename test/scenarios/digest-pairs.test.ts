// The digest pairs say what §11 says: the model of the contract (harness/model/projection.ts, written from its text)
// calls each public pair different, each credential-only pair the same, never "either way".
import { describe, expect, it } from 'vitest';
import { sameCall } from '../../harness/model/projection.js';
import { CREDENTIAL_PAIRS, PUBLIC_PAIRS } from '../../scenarios/digest/pairs.js';
import { canonicalJson } from '../../shared/canonical-json.js';

const SECRETS = ['EJCcanaryAAAA1111', 'EJCcanaryBBBB2222'];

describe('digest pairs', () => {
  for (const pair of [...PUBLIC_PAIRS, ...CREDENTIAL_PAIRS]) {
    it(`${pair.name}: ${pair.same ? 'same call' : 'different calls'}`, () => {
      const a = { args: pair.args('a', SECRETS[0]!), secretArgKeys: [...(pair.secretArgKeys ?? [])] };
      const b = { args: pair.args('b', SECRETS[1]!), secretArgKeys: [...(pair.secretArgKeys ?? [])] };
      expect(sameCall(a, b)).toBe(pair.same ? 'same' : 'different');
    });
  }

  it('public pairs differ in their canonical JSON (RFC 8785), the pair that only reorders keys does not', () => {
    const alike = PUBLIC_PAIRS.filter((p) => canonicalJson(p.args('a', '')) === canonicalJson(p.args('b', ''))).map((p) => p.name);
    expect(alike).toEqual(PUBLIC_PAIRS.filter((p) => p.same).map((p) => p.name));
  });

  it('a __proto__ member is an own data member of the arguments sent', () => {
    const pair = PUBLIC_PAIRS.find((p) => p.name.startsWith('a top-level __proto__'))!;
    expect(JSON.stringify(pair.args('a', ''))).toBe('{"__proto__":{"x":1},"n":1}');
  });
});
