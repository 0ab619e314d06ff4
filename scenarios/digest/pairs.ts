// Pairs of argument sets §11 decides: public values that differ however alike they look, and credential-only changes.
import { createHash } from 'node:crypto';

/** Two argument sets for one identity: `same` when §11 makes them one call (replay), otherwise a refusal. */
export interface DigestPair {
  readonly name: string;
  readonly same: boolean;
  /** The arguments of side a or b; `secret` is a fresh canary per call (unused by pairs without a credential). */
  readonly args: (side: 'a' | 'b', secret: string) => Record<string, unknown>;
  /** The keys the tool declares secret (§11 excludes exactly these); none when absent. */
  readonly secretArgKeys?: readonly string[];
}

const hex = (seed: string, n = 64): string => createHash('sha256').update(seed).digest('hex').slice(0, n);
const b64 = (seed: string): string => createHash('sha512').update(seed).digest('base64') + createHash('sha512').update(`${seed}+`).digest('base64');
const b64url = (seed: string): string => createHash('sha256').update(seed).digest('base64url');
const uuid = (seed: string): string => { const h = hex(seed, 32); return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`; };
/** `s` with its character at `at` (from the end when negative) replaced by another of the same alphabet. */
const flip = (s: string, at: number): string => { const i = at < 0 ? s.length + at : at; const c = s[i]!; const r = c === '0' ? '1' : c === 'A' ? 'B' : c === 'a' ? 'b' : '0'; return s.slice(0, i) + r + s.slice(i + 1); };
/** An object whose own data members are exactly `entries`, `__proto__` included (a literal would set the prototype). */
export function own(entries: ReadonlyArray<readonly [string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}
const pick = <T>(side: 'a' | 'b', a: T, b: T): T => (side === 'a' ? a : b);
const pub = (name: string, a: Record<string, unknown>, b: Record<string, unknown>): DigestPair => ({ name, same: false, args: (side) => pick(side, a, b) });

const H = hex('commit');
const H40 = hex('revision', 40);
const B64 = b64('blob');
// Text of short words: a 70 000-character run without a word break is its own (quadratic-regex) problem, not this one.
const LONG = 'line of text, '.repeat(5_000);

/**
 * Public argument sets that differ only in a value a journal might take for a secret, drop, reorder, normalize or print
 * alike: each pair is two questions (§11 "unrecognized public fields and ordinary arguments still contribute their
 * complete surviving values"), so the second must refuse the first's replay.
 */
export const PUBLIC_PAIRS: readonly DigestPair[] = [
  pub('a SHA-256 hex hash, last character changed', { commit: H }, { commit: flip(H, -1) }),
  pub('a 40-character hex revision, a middle character changed', { revision: H40 }, { revision: flip(H40, 20) }),
  pub('a long base64 blob, one character changed', { blob: B64 }, { blob: flip(B64, -9) }),
  pub('a base64url request id, first character changed', { requestId: b64url('req') }, { requestId: flip(b64url('req'), 0) }),
  pub('a UUID, last character changed', { orderId: uuid('order') }, { orderId: flip(uuid('order'), -1) }),
  pub('a hex hash in an argument vector', { argv: ['git', 'checkout', H40] }, { argv: ['git', 'checkout', flip(H40, -1)] }),
  pub('a hex hash in a URL query value', { url: `https://cdn.invalid/blobs/${hex('path', 16)}?v=${H}` }, { url: `https://cdn.invalid/blobs/${hex('path', 16)}?v=${flip(H, -1)}` }),
  pub('a __proto__ member, its value changed', { meta: own([['__proto__', { level: 1 }], ['n', 1]]) }, { meta: own([['__proto__', { level: 2 }], ['n', 1]]) }),
  pub('a top-level __proto__ member present or absent', own([['__proto__', { x: 1 }], ['n', 1]]), { n: 1 }),
  pub('a constructor member, its value changed', { meta: own([['constructor', 'a'], ['toString', 1]]) }, { meta: own([['constructor', 'b'], ['toString', 1]]) }),
  pub('a null member or an absent one', { amount: 1, note: null }, { amount: 1 }),
  pub('a nested null member or an absent one', { options: { retry: null, n: 1 } }, { options: { n: 1 } }),
  pub('null or the empty string', { note: null }, { note: '' }),
  pub('a null array element or a shorter array', { items: [1, null] }, { items: [1] }),
  pub('the order of numbers in an array', { items: [3, 1, 2] }, { items: [1, 2, 3] }),
  pub('the order of strings in an array', { tags: ['beta', 'alpha'] }, { tags: ['alpha', 'beta'] }),
  pub('the order of objects in an array', { lines: [{ sku: 'b', n: 1 }, { sku: 'a', n: 2 }] }, { lines: [{ sku: 'a', n: 2 }, { sku: 'b', n: 1 }] }),
  pub('the order of flag pairs in an argument vector', { argv: ['deploy', '--region', 'eu', '--zone', 'a'] }, { argv: ['deploy', '--zone', 'a', '--region', 'eu'] }),
  pub('a value in NFC or NFD', { city: 'Z\u00fcrich' }, { city: 'Zu\u0308rich' }),
  pub('a key in NFC or NFD', { 'caf\u00e9': 1 }, { 'cafe\u0301': 1 }),
  pub('0.1 + 0.2 or 0.3 (alike at 15 digits)', { ratio: 0.1 + 0.2 }, { ratio: 0.3 }),
  pub('2^53 + 2 or 2^53 (alike as float32 or at 15 digits)', { big: 9007199254740994 }, { big: 9007199254740992 }),
  pub('1 + 2^-52 or 1', { precise: 1.0000000000000002 }, { precise: 1 }),
  pub('an empty object or an empty array', { options: {} }, { options: [] }),
  pub('keys differing only in case', { Region: 'eu' }, { region: 'eu' }),
  // §11 excludes "every key named in secretArgKeys": a public key that differs from a declared one only in case is not named.
  { name: 'a public key differing only in case from a declared secret key: its value changed', same: false, secretArgKeys: ['region'], args: (side, s) => ({ region: s, Region: side === 'a' ? 'eu' : 'us' }) },
  pub('two spaces or one inside a string', { note: 'a  b' }, { note: 'a b' }),
  pub('a trailing space', { note: 'ab ' }, { note: 'ab' }),
  pub('a 70 000-character value, its last character changed', { body: `${LONG}1` }, { body: `${LONG}2` }),
  { name: 'the same members in another key order (one call)', same: true, args: (side) => (side === 'a' ? { a: 1, b: { y: 1, x: [2, { q: 1, p: 2 }] } } : { b: { x: [2, { p: 2, q: 1 }], y: 1 }, a: 1 }) },
];

// A credential-only pair (`same`) and, beside it, a pair changing the public value next to the credential (`different`).
function form(name: string, args: (secret: string, pub: string) => Record<string, unknown>): DigestPair[] {
  return [
    { name: `${name}: only the credential changed`, same: true, args: (_side, secret) => args(secret, 'eu') },
    { name: `${name}: the public value beside it changed`, same: false, args: (side, secret) => args(secret, side === 'a' ? 'eu' : 'us') },
  ];
}

/**
 * Every credential form §11 names, each once with only the credential changed (the projection is the same, so replay:
 * "raw credential bytes are never added to the digest to distinguish calls") and once with the public value beside it
 * changed (refuse: the mask ends where the credential does).
 */
export const CREDENTIAL_PAIRS: readonly DigestPair[] = [
  ...form('--token value', (s, p) => ({ argv: ['deploy', '--token', s, '--region', p] })),
  ...form('--password=value', (s, p) => ({ argv: ['login', `--password=${s}`, `--region=${p}`] })),
  ...form('--access-token=value', (s, p) => ({ argv: ['sync', `--access-token=${s}`, p] })),
  ...form('-p with a non-port value', (s, p) => ({ argv: ['mysql', '-p', s, '-h', `db-${p}`] })),
  { name: '-p with a port: the port changed', same: false, args: (side) => ({ argv: ['serve', '-p', side === 'a' ? '8080' : '8081'] }) },
  // protocol.md: "a bare port number (1–5 digits, or a JSON number) is port-shaped for every detector".
  { name: '-p with a port as a JSON number: the port changed', same: false, args: (side) => ({ argv: ['psql', '-p', side === 'a' ? 5432 : 6543] }) },
  ...form('a double-quoted password with escaped quotes and backslashes', (s, p) => ({ line: `retries=3 password="x\\"${s}\\\\" region=${p}` })),
  ...form('a single-quoted token', (s, p) => ({ line: `token='${s}' region=${p}` })),
  ...form('a "secret": "value" member inside text', (s, p) => ({ body: `{"secret": "a\\"${s}", "region": "${p}"}` })),
  ...['Bearer', 'bearer', 'BEARER', 'bEaReR', 'Basic', 'basic', 'BASIC', 'Token', 'token', 'TOKEN'].flatMap((scheme) => form(`a ${scheme} scheme`, (s, p) => ({ header: `${scheme} ${s}`, region: p }))),
  { name: 'Bearer or bearer with different credentials (no casing survives)', same: true, args: (side, s) => ({ header: `${side === 'a' ? 'Bearer' : 'bearer'} ${s}` }) },
  { name: 'a Bearer or a Basic scheme (the label survives)', same: false, args: (side, s) => ({ header: `${side === 'a' ? 'Bearer' : 'Basic'} ${s}` }) },
  ...form('URL userinfo user:password', (s, p) => ({ url: `https://svc:${s}@api.invalid/v1/${p}` })),
  ...form('URL userinfo whose password holds an @', (s, p) => ({ url: `https://svc:p@${s}@api.invalid/v1/${p}` })),
  ...form('URL userinfo of a token alone', (s, p) => ({ url: `https://${s}@git.invalid/team/${p}.git` })),
  ...form('an opaque access_token query value', (s, p) => ({ url: `https://api.invalid/v1/items?page=2&access_token=${s}&region=${p}` })),
  ...form('an api_key query value longer than 512 characters', (s, p) => ({ url: `https://api.invalid/v1/items?api_key=${s}${'Q'.repeat(600)}&region=${p}#top` })),
  ...form('a structural credential key, nested', (s, p) => ({ config: { client_secret: s, region: p } })),
  ...form('a structural credential key holding an object', (s, p) => ({ password: { value: s, n: 1 }, region: p })),
];
