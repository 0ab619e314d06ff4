// canonicalJson is RFC 8785 (JCS): cross-checked against an independent implementation and the RFC's own examples.
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, hasLoneSurrogate, wellFormedJson } from '../../shared/canonical-json.js';

// Strings over every UTF-16 code unit pairing that is well formed: BMP, astral (surrogate pairs), controls.
const wellFormedString = fc.string({ unit: 'grapheme-composite', maxLength: 12 });
const anyUnitString = fc.string({ unit: 'binary', maxLength: 12 });
const numbers = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom(0, -0, 1e21, 1e-7, 1e-6, 5e-324, Number.MAX_VALUE, Number.MIN_SAFE_INTEGER, 2 ** 53, 0.1 + 0.2),
);
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), numbers, wellFormedString, anyUnitString.filter((s) => !hasLoneSurrogate(s)), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.dictionary(fc.oneof(wellFormedString, anyUnitString.filter((s) => !hasLoneSurrogate(s))), tie('value'), { maxKeys: 6 }),
})).value;

describe('canonicalJson is RFC 8785 (JCS)', () => {
  it('agrees with the canonicalize package on generated JSON: numbers, unicode, nesting and key order', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('parses back to the same value and is a fixed point', () => {
    fc.assert(
      fc.property(json, (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('serializes numbers as ECMAScript does (RFC 8785 appendix B, by IEEE 754 bit pattern)', () => {
    const vectors: Array<[string, string]> = [
      ['0000000000000000', '0'],
      ['8000000000000000', '0'],
      ['0000000000000001', '5e-324'],
      ['8000000000000001', '-5e-324'],
      ['7fefffffffffffff', '1.7976931348623157e+308'],
      ['ffefffffffffffff', '-1.7976931348623157e+308'],
      ['4340000000000000', '9007199254740992'],
      ['c340000000000000', '-9007199254740992'],
      ['4430000000000000', '295147905179352830000'],
      ['44b52d02c7e14af5', '9.999999999999997e+22'],
      ['44b52d02c7e14af6', '1e+23'],
      ['44b52d02c7e14af7', '1.0000000000000001e+23'],
      ['444b1ae4d6e2ef4e', '999999999999999700000'],
      ['444b1ae4d6e2ef4f', '999999999999999900000'],
      ['444b1ae4d6e2ef50', '1e+21'],
      ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
      ['3eb0c6f7a0b5ed8d', '0.000001'],
      ['41b3de4355555553', '333333333.3333332'],
      ['41b3de4355555554', '333333333.33333325'],
      ['41b3de4355555555', '333333333.3333333'],
      ['41b3de4355555556', '333333333.3333334'],
      ['41b3de4355555557', '333333333.33333343'],
      ['becbf647612f3696', '-0.0000033333333333333333'],
      ['43143ff3c1cb0959', '1424953923781206.2'],
    ];
    for (const [bits, expected] of vectors) {
      const view = new DataView(new ArrayBuffer(8));
      view.setBigUint64(0, BigInt(`0x${bits}`));
      expect([bits, canonicalJson(view.getFloat64(0))]).toEqual([bits, expected]);
    }
  });

  it('orders members by UTF-16 code units, not code points or locale (RFC 8785 §3.2.3)', () => {
    const value = { '\u20ac': 'Euro Sign', '\r': 'Carriage Return', '\ufb33': 'Hebrew Letter Dalet With Dagesh', '1': 'One', '\ud83d\ude00': 'Emoji: Grinning Face', '\u0080': 'Control', '\u00f6': 'Latin Small Letter O With Diaeresis' };
    // Read the order from the text: a parsed object would list the integer-like key "1" first whatever the text says.
    const order = [...canonicalJson(value).matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((m) => JSON.parse(`"${m[1]!}"`) as string);
    expect(order).toEqual(['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33']);
  });

  it('writes the RFC 8785 §3.2.2 example exactly', () => {
    const input = JSON.parse(String.raw`{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/", "literals": [null, true, false]}`) as unknown;
    expect(canonicalJson(input)).toBe(String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`);
  });

  it('refuses what I-JSON excludes, naming where: lone surrogates (in values and names), NaN, Infinity, non-JSON types', () => {
    expect(() => canonicalJson({ a: ['ok', 'x\ud800'] })).toThrow('lone surrogate at $.a[1]');
    expect(() => canonicalJson({ '\udc00': 1 })).toThrow(/lone surrogate/);
    expect(() => canonicalize({ a: 'x\ud800' })).toThrow();
    expect(() => canonicalJson({ n: Number.NaN })).toThrow('non-finite number at $.n');
    expect(() => canonicalJson([Infinity])).toThrow('non-finite');
    expect(() => canonicalJson({ f: () => 1 })).toThrow('function is not JSON at $.f');
    expect(() => canonicalJson(10n)).toThrow('bigint is not JSON');
  });

  it('wellFormedJson replaces lone surrogates so text from an implementation can always be sealed', () => {
    const hostile = { ['k\udfff']: ['\ud800', 'fine \ud83d\ude00'], __proto__x: 1 };
    const clean = wellFormedJson(hostile);
    expect(canonicalJson(clean)).toBe(canonicalize(clean));
    expect(clean).toEqual({ 'k\ufffd': ['\ufffd', 'fine \ud83d\ude00'], __proto__x: 1 });
    const proto = wellFormedJson(JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>);
    expect(Object.keys(proto)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
