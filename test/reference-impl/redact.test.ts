import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../shared/canonical-json.js';
import { redactArgs, redactString, redactValue } from '../../reference-impl/index.js';

const R = '[redacted]';

describe('redactString', () => {
  it.each([
    ['https://user:pa55@example.com/path?q=1#frag', `https://${R}@example.com/path?q=1#frag`],
    // Through the authority's LAST '@': an unescaped '@' in the password must not leak its tail.
    ['https://user:p@ss@db.example.com:5432/app', `https://${R}@db.example.com:5432/app`],
    ['postgres://admin@host/db', `postgres://${R}@host/db`],
    ['see https://example.com/a@b for docs', 'see https://example.com/a@b for docs'],
  ])('URL userinfo %s', (input, expected) => {
    expect(redactString(input)).toBe(expected);
  });

  it('masks opaque credential query values through their delimiter, whatever the length', () => {
    const long = 'A'.repeat(600);
    expect(redactString(`https://api.example.com/v1?user=bob&api_key=${long}&page=2#top`)).toBe(
      `https://api.example.com/v1?user=bob&api_key=${R}&page=2#top`,
    );
    expect(redactString('https://s3.example.com/o?X-Amz-Signature=abc123&X-Amz-Expires=60')).toBe(
      `https://s3.example.com/o?X-Amz-Signature=${R}&X-Amz-Expires=60`,
    );
    for (const name of ['token', 'key', 'apikey', 'access_token', 'secret', 'password', 'sig', 'signature', 'auth']) {
      expect(redactString(`https://h/p?${name}=SECRETVALUE`)).toBe(`https://h/p?${name}=${R}`);
    }
    expect(redactString('https://h/cb#access_token=SECRET&state=1')).toBe(`https://h/cb#access_token=${R}&state=1`);
    expect(redactString('https://h/p?page=2&sort=asc')).toBe('https://h/p?page=2&sort=asc');
  });

  it('masks quoted secret-key values through the real closing quote, honouring escapes', () => {
    expect(redactString('{"password": "a\\"b\\\\", "user": "bob"}')).toBe(`{"password": "${R}", "user": "bob"}`);
    expect(redactString("token='x y z' rest")).toBe(`token='${R}' rest`);
    expect(redactString('config api_key = "abc')).toBe(`config api_key = "${R}`);
    expect(redactString('name: "bob"')).toBe('name: "bob"');
  });

  it('keeps only the canonical label of an anchored Bearer/Basic/Token scheme', () => {
    expect(redactString('Bearer abc.def.ghi')).toBe(`Bearer ${R}`);
    expect(redactString('bEaReR abc')).toBe(`Bearer ${R}`);
    expect(redactString('Basic dXNlcjpwYXNz')).toBe(`Basic ${R}`);
    expect(redactString('token 123456 trailing')).toBe(`Token ${R}`);
    expect(redactString('the Bearer is here')).toBe('the Bearer is here');
  });
});

describe('argv vectors', () => {
  it.each([
    [['deploy', '--token', 'SECRET', '--verbose'], ['deploy', '--token', R, '--verbose']],
    [['deploy', '--token=SECRET'], ['deploy', `--token=${R}`]],
    [['login', '--password', 'hunter2'], ['login', '--password', R]],
    [['x', '--api-key', 'k', '--secret=s'], ['x', '--api-key', R, `--secret=${R}`]],
    // Named credential flags have no port exception.
    [['x', '--password', '5432'], ['x', '--password', R]],
    [['mysql', '-p', 'hunter2'], ['mysql', '-p', R]],
    [['docker', 'run', '-p', '8080:80'], ['docker', 'run', '-p', '8080:80']],
    [['ssh', '-p', '22', 'host'], ['ssh', '-p', '22', 'host']],
    [['ls', '-la'], ['ls', '-la']],
  ])('%j', (input, expected) => {
    expect(redactValue(input)).toEqual(expected);
  });
});

describe('structural keys and projection', () => {
  it('masks the whole value of a credential key before traversal', () => {
    const projected = redactValue({
      headers: { Authorization: 'Bearer abc', 'X-Api-Key': 'k', Accept: 'json' },
      credentials: { user: 'bob', nested: ['a', { deep: 1 }] },
      privateKey: '-----BEGIN-----',
      cookie: 'sid=1',
      githubToken: 'ghp_x',
      count: 3,
    });
    expect(canonicalJson(projected)).toBe(
      canonicalJson({
        headers: { Authorization: R, 'X-Api-Key': R, Accept: 'json' },
        credentials: R,
        privateKey: R,
        cookie: R,
        githubToken: R,
        count: 3,
      }),
    );
  });

  it('drops declared secret keys at top level only and keeps __proto__ as data', () => {
    const args = JSON.parse('{"__proto__": {"polluted": true}, "pin": "1234", "body": {"pin": "kept"}}') as Record<string, unknown>;
    const projected = redactArgs(args, ['pin']);
    expect(Object.keys(projected)).toEqual(['__proto__', 'body']);
    expect(canonicalJson(projected)).toBe('{"__proto__":{"polluted":true},"body":{"pin":"kept"}}');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('never changes the arguments it was given', () => {
    const args = { url: 'https://u:p@h/', argv: ['--token', 't'] };
    const copy = structuredClone(args);
    redactArgs(args, []);
    expect(args).toEqual(copy);
  });
});
