import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex } from '../../shared/canonical-json.js';
import { argsDigest, outputMappingDigest } from '../../reference-impl/index.js';
import { isCredentialKey, redactString } from '../../reference-impl/redact.js';
import { identityJson } from '../../reference-impl/digest.js';

const publicKey = fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !isCredentialKey(k) && k !== 'secretField');
// A public string is one the shape detector leaves alone: then every change to it must reach the digest.
const publicString = fc.string({ maxLength: 40 }).filter((s) => redactString(s) === s);
const publicValue = fc.oneof(fc.integer(), fc.boolean(), publicString, fc.array(fc.integer(), { maxLength: 3 }));
const publicArgs = fc.dictionary(publicKey, publicValue, { minKeys: 1, maxKeys: 6 });
const credential = fc.string({ minLength: 1, maxLength: 30 }).filter((s) => !/[\s@/?#&;"'\\]/.test(s));

describe('args digest (§11)', () => {
  it('is v5: + SHA-256 hex of the canonical JSON of the redacted projection', () => {
    const digest = argsDigest({ b: 1, a: 'x', pin: '1234' }, ['pin']);
    expect(digest).toBe(`v5:${sha256Hex(canonicalJson({ a: 'x', b: 1 }))}`);
    expect(digest).toMatch(/^v5:[0-9a-f]{64}$/);
  });

  it('ignores key order', () => {
    fc.assert(
      fc.property(publicArgs, (args) => {
        const reversed = Object.fromEntries(Object.entries(args).reverse());
        expect(argsDigest(reversed, [])).toBe(argsDigest(args, []));
      }),
    );
  });

  it('a declared secret or a recognized credential change leaves the digest unchanged', () => {
    fc.assert(
      fc.property(publicArgs, credential, credential, (base, c1, c2) => {
        const withCredential = (c: string) => ({
          ...base,
          secretField: c,
          url: `https://user:${c}@api.example.com/v1?page=2&access_token=${c}`,
          headers: { Authorization: `Bearer ${c}`, Accept: 'application/json' },
          argv: ['deploy', '--token', c, `--password=${c}`],
          body: `{"password": "${c}"}`,
        });
        expect(argsDigest(withCredential(c1), ['secretField'])).toBe(argsDigest(withCredential(c2), ['secretField']));
      }),
    );
  });

  it('any public value change alters the digest', () => {
    fc.assert(
      fc.property(publicArgs, publicValue, fc.nat(), (args, replacement, pick) => {
        const keys = Object.keys(args);
        const key = keys[pick % keys.length] as string;
        fc.pre(canonicalJson(args[key]) !== canonicalJson(replacement));
        const changed = { ...args, [key]: replacement };
        expect(argsDigest(changed, [])).not.toBe(argsDigest(args, []));
      }),
    );
  });

  it('includes long public string tails in full', () => {
    const a = `${'x'.repeat(5000)}a`;
    const b = `${'x'.repeat(5000)}b`;
    expect(argsDigest({ body: a }, [])).not.toBe(argsDigest({ body: b }, []));
  });

  it('refuses arguments that are not I-JSON (a lone surrogate) as an invalid param naming the field, not as internal', () => {
    const refused = (() => {
      try {
        argsDigest({ meta: { config: 'ok\ud83dZ' } }, []);
        return null;
      } catch (error) {
        return error as { name: string; code: string; message: string };
      }
    })();
    expect(refused).toMatchObject({ name: 'JournalError', code: 'unsupported' });
    expect(refused?.message).toMatch(/^params\.args: a lone surrogate at \$\.meta\.config /);
    // The pair itself is fine.
    expect(argsDigest({ meta: { config: 'ok\ud83d\ude42' } }, [])).toMatch(/^v5:/);
  });

  it('output-mapping digest distinguishes configs and an absent config', () => {
    expect(outputMappingDigest(undefined)).not.toBe(outputMappingDigest(null));
    expect(outputMappingDigest({ path: '$.a' })).not.toBe(outputMappingDigest({ path: '$.b' }));
    expect(outputMappingDigest({ a: 1, b: 2 })).toBe(outputMappingDigest({ b: 2, a: 1 }));
  });
});

describe('idempotency key identity', () => {
  const scope = fc.oneof(
    fc.record({ kind: fc.constant('run' as const), runId: fc.string({ minLength: 1 }), nodeId: fc.string({ minLength: 1 }) }),
    fc.record({ kind: fc.constant('session' as const), sessionId: fc.string({ minLength: 1 }), turn: fc.nat() }),
  );
  it('the hand-written identity JSON is exactly canonicalJson({ identity, id, replaces })', () => {
    fc.assert(
      fc.property(scope, fc.integer(), fc.string({ minLength: 1 }), fc.nat(), fc.option(fc.string()), (s, slot, toolId, id, replaces) => {
        const identity = { scope: s, slot, toolId };
        expect(identityJson(identity, id, replaces)).toBe(canonicalJson({ identity, id, replaces }));
      }),
    );
  });
});

describe('canonicalJson', () => {
  it('names the path of the first value that is not JSON', () => {
    expect(() => canonicalJson({ a: [1, Number.NaN] })).toThrow('canonicalJson: non-finite number at $.a[1]');
    expect(() => canonicalJson({ b: { c: 1n } })).toThrow('canonicalJson: bigint is not JSON at $.b.c');
    expect(canonicalJson({ b: [1, { z: null, a: 'é\n' }], a: undefined })).toBe('{"b":[1,{"a":"é\\n","z":null}]}');
  });
});
