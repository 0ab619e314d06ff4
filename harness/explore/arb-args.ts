// Tool arguments as arbitrary JSON: nesting, key order, unicode, long values, and secrets in every shape §11 names.
import fc from 'fast-check';
import { keyClass } from '../model/projection.js';
import { SECRET } from './canaries.js';

/** A call's arguments before its canaries exist: SECRET marks every planted secret. */
export interface ArgsTemplate {
  readonly args: Record<string, unknown>;
  readonly secretArgKeys: readonly string[];
}

/** Object keys that mean nothing to a detector: their values always survive into the projection. */
const publicKey = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('amount', 'note', 'path', 'items', 'city', 'n', 'meta', 'list', 'flag', 'count', 'label', 'é', '中文', 'a.b', 'x y', 'Ω', '__proto__', 'url', 'config', 'argv') },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 6, unit: fc.constantFrom(...'abcdefghijmnoqruvwxyz0123456789_é'.split('')) }) },
).filter((k) => keyClass(k) === 'public');

// Plain text a detector can never take for a credential: no scheme, URL, assignment, flag or credential word.
const safeChar = fc.constantFrom(...Array.from('abcdefghijlmnoquvwxyzABCDEFGHIJLMNOQUVWXYZ0123456789 .,!é中🙂"\'\\\n'));
const publicText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 16, unit: safeChar }) },
  { weight: 1, arbitrary: fc.constantFrom('', 'e\u0301', '\u00e9', 'Ω≈ç', 'quote "inside"', "it's") },
  // Long values: the digest must consume every surviving character, tails beyond any preview included.
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 520, max: 1400 }), fc.string({ minLength: 1, maxLength: 4, unit: safeChar })).map(([n, tail]) => `${'L'.repeat(n)}${tail}`) },
).filter(isPublicText);

const number = fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)));
const leaf = fc.oneof({ weight: 4, arbitrary: publicText }, { weight: 3, arbitrary: number }, { weight: 1, arbitrary: fc.boolean() }, { weight: 1, arbitrary: fc.constant(null) });

const CREDENTIAL_KEYS = ['password', 'token', 'secret', 'authorization', 'Authorization', 'apiKey', 'api_key', 'access_token', 'accessToken', 'client_secret', 'privateKey'];
const caseOf = (word: string) => fc.constantFrom(word, word.toLowerCase(), word.toUpperCase());

/** Secret-bearing values in every shape the contract names, each holding SECRET somewhere. */
export const secretShape: fc.Arbitrary<unknown> = fc.oneof(
  // An anchored scheme: only its canonical label survives.
  fc.tuple(fc.constantFrom('Bearer', 'Basic', 'Token').chain(caseOf), fc.constantFrom('', '.x', '==')).map(([scheme, tail]) => `${scheme} ${SECRET}${tail}`),
  // URL userinfo, masked through the authority's last '@' (a password may hold one).
  fc.tuple(fc.constantFrom('u', 'svc', 'a@b'), fc.constantFrom('', 'p@'), fc.constantFrom('api.invalid', 'h.test:8443'), fc.constantFrom('/v1/x', '/', '/a?b=1')).map(([user, pre, host, path]) => `https://${user}:${pre}${SECRET}@${host}${path}`),
  // An opaque credential query value, masked through its delimiter, long ones included.
  fc.tuple(fc.constantFrom('access_token', 'token', 'api_key'), fc.constantFrom('', 'Q'.repeat(600)), fc.constantFrom('', '&z=2', '#frag')).map(([param, long, rest]) => `https://api.invalid/v1/items?page=2&${param}=${SECRET}${long}${rest}`),
  // A quoted secret-key value inside text, with an escaped quote before the real closing one.
  fc.tuple(fc.constantFrom('password', 'token', 'secret'), fc.constantFrom('"', "'"), fc.constantFrom('', '\\"x', '\\\\')).map(([key, q, inner]) => `retries=3 ${key}=${q}${SECRET}${q === '"' ? inner : ''}${q} timeout=30`),
  // Credential flags in an argument vector; -p keeps its port exception, so a non-port value is the secret.
  fc.constantFrom(['deploy', '--token', SECRET, '--region', 'eu'], ['run', `--password=${SECRET}`, 'x'], ['mysql', '-p', SECRET, '-h', 'db'], ['login', '--api-key', SECRET]),
  // A structural credential key anywhere: its whole value is masked before traversal.
  fc.tuple(fc.constantFrom(...CREDENTIAL_KEYS), fc.constantFrom<unknown>(SECRET, { inner: SECRET, n: 1 }, [SECRET, 'x'])).map(([key, value]) => ({ [key]: value, kind: 'cred' })),
);

/** Arbitrary JSON with secrets planted at random depths: objects, arrays (secrets inside arrays too) and leaves. */
export const argsTree: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown; object: Record<string, unknown>; array: unknown[] }>((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('object'), tie('array'), secretShape),
  object: fc.dictionary(publicKey, tie('node'), { maxKeys: 4 }),
  array: fc.array(tie('node'), { maxLength: 4 }),
})).node;

/** Top-level arguments: public members, 1–3 secret shapes placed at the top, nested in an object or inside an array,
 * a public port, and declared secret keys (named plainly: only the declaration hides them). */
export const argsTemplate: fc.Arbitrary<ArgsTemplate> = fc
  .record({
    members: fc.dictionary(publicKey, argsTree, { minKeys: 1, maxKeys: 4 }),
    secrets: fc.array(fc.tuple(secretShape, fc.constantFrom('top', 'nested', 'array'), publicKey), { minLength: 1, maxLength: 3 }),
    port: fc.option(fc.constantFrom(['-p', '8080'], ['-p', '127.0.0.1:5432:5432'], ['serve', '-p=9090']), { nil: undefined }),
    declared: fc.uniqueArray(fc.constantFrom('apiToken', 'pin', 'sessionNonce', 'k', 'x_secret_value'), { maxLength: 2 }),
    declaredValues: fc.array(fc.constantFrom<unknown>(SECRET, { nested: SECRET, keep: 1 }, [SECRET]), { minLength: 2, maxLength: 2 }),
  })
  .map(({ members, secrets, port, declared, declaredValues }) => {
    const args: Record<string, unknown> = {};
    for (const key of Object.keys(members)) define(args, key, members[key]);
    secrets.forEach(([shape, where, key], i) => {
      // A placement is a key of its own (s0, s1 ...) so two shapes never overwrite each other.
      const name = `${key}${i}`;
      define(args, name, where === 'top' ? shape : where === 'nested' ? { level: 2, inner: { [key]: shape, n: i } } : ['first', shape, { n: i }]);
    });
    // A port after -p is public: changing it must change the call.
    if (port) define(args, 'ports', port);
    declared.forEach((key, i) => define(args, key, declaredValues[i]));
    return { args, secretArgKeys: declared };
  });

function isPublicText(s: string): boolean {
  return !/pass|token|secret|auth|key|cookie|cred|sig|pwd|bearer|basic|session|private|nonce|:\/\/|=|^\s*-|data:/i.test(s) && !s.includes(SECRET);
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
