// The inputs of the §11 digest test vectors: every credential shape §11 names, nesting, escapes, numbers, key order and
// "__proto__". docs/digest-vectors.json holds them with the reference journal's projection, canonical JSON and digest.

/** One vector's input: what a prepare receives as `args` and `secretArgKeys`. */
export interface VectorCase {
  readonly name: string;
  /** The §11 sentence (or the corner of canonical JSON) it exercises. */
  readonly covers: string;
  readonly args: Record<string, unknown>;
  readonly secretArgKeys: readonly string[];
}

const LONG_SIG = 'S'.repeat(600);

// "__proto__" must stay an own data member, so these two are built without the setter.
const protoTop = JSON.parse('{"__proto__":{"polluted":true,"password":"pw-in-proto"},"visible":1}') as Record<string, unknown>;
const protoNested = JSON.parse('{"payload":{"__proto__":"plain string","list":[{"__proto__":{"token":"t-in-proto"}}]}}') as Record<string, unknown>;

export const VECTOR_CASES: readonly VectorCase[] = [
  { name: 'empty arguments', covers: 'canonical JSON of an empty projection', args: {}, secretArgKeys: [] },
  { name: 'plain public arguments', covers: 'unrecognized public fields contribute their complete values', args: { url: 'https://api.example.com/v1/items', method: 'POST', body: { name: 'widget', qty: 3 } }, secretArgKeys: [] },
  { name: 'declared secret keys dropped', covers: 'every key named in secretArgKeys is excluded before hashing', args: { region: 'eu-west', pin: '4711', apiSession: 'abc' }, secretArgKeys: ['pin', 'apiSession'] },
  { name: 'declared secret key absent', covers: 'a secret key the call does not carry changes nothing', args: { region: 'eu-west' }, secretArgKeys: ['pin'] },
  { name: 'declared secret key is top-level only', covers: 'top-level tool-argument admission exclusions', args: { outer: { pin: '4711' }, pin: '1234' }, secretArgKeys: ['pin'] },
  { name: 'structural credential keys', covers: 'a recognized structural credential key masks its entire value', args: { password: 'hunter2', token: 'tok-1', apiKey: 'k-1', 'x-api-key': 'k-2', Authorization: 'Bearer abc', client_secret: 'cs', privateKey: 'pk', cookie: 'sid=1', passphrase: 'pp', secret_key: 'sk', access_key: 'ak', session_token: 'st', credential: 'c', auth: 'a' }, secretArgKeys: [] },
  { name: 'credential key suffixes', covers: 'keys ending in password, secret, apikey, token, privatekey or credentials', args: { dbPassword: 'p', githubToken: 't', stripeApiKey: 'k', sshPrivateKey: 'pk', awsCredentials: 'c', clientSecret: 's', tokenizer: 'public', passwordHint: 'public' }, secretArgKeys: [] },
  { name: 'credential key masks an object before traversal', covers: 'masks its entire value before traversal; a partial inner match does not make the rest public', args: { credentials: { user: 'alice', host: 'db.internal', nested: [1, 2] }, auth: ['u', 'p'], token: 42, password: null }, secretArgKeys: [] },
  { name: 'nested credential keys', covers: 'credential keys are masked at every depth', args: { request: { headers: { Authorization: 'Basic dXNlcjpwYXNz', Accept: 'application/json' }, items: [{ apiKey: 'k' }, { name: 'n' }] } }, secretArgKeys: [] },
  { name: 'Bearer, Basic and Token schemes', covers: 'only an anchored Bearer, Basic or Token scheme survives as its canonical label followed by [redacted]', args: { a: 'Bearer abc.def', b: 'bearer lowercase', c: '  BASIC dXNlcg==', d: 'token t-123', e: 'Token', f: 'not Bearer anchored', g: 'Bearerless' }, secretArgKeys: [] },
  { name: 'URL userinfo through the last @', covers: 'recognized URL userinfo is masked through the authority\'s last @, preserving host, path, query and fragment', args: { a: 'https://user:p@ss@db.example.com:5432/db?x=1#top', b: 'postgres://admin:secret@localhost/app', c: 'see https://u@h.example/p and ftp://x:y@z.example', d: 'mailto:someone@example.com', e: 'https://no-userinfo.example/a@b' }, secretArgKeys: [] },
  { name: 'opaque URL query values', covers: 'recognized opaque URL-query values are masked through their delimiter', args: { a: 'https://x.example/p?key=abc&page=2', b: 'https://s3.example/o?X-Amz-Signature=ff00&X-Amz-Credential=AK%2F1&X-Amz-Security-Token=tt#frag', c: 'https://x.example/cb?access_token=at;sig=s1&pwd=p&signature=s2', d: 'https://x.example/p?keys=public&monkey=public' }, secretArgKeys: [] },
  { name: 'query value longer than 512 characters', covers: 'including values longer than 512 characters', args: { url: `https://x.example/p?sig=${LONG_SIG}&next=1` }, secretArgKeys: [] },
  { name: 'quoted secret-key values', covers: 'quoted secret-key values honor escaped quotes and backslashes through the actual closing quote', args: { a: '{"password": "pa\\"ss\\\\", "user": "bob"}', b: "token='t\\'1' rest", c: 'config: api_key="k1" region="eu"', d: '"name": "public", "secret": "s"' }, secretArgKeys: [] },
  { name: 'unterminated quoted value', covers: 'a recognized value must not leave a credential suffix in the projection', args: { a: 'password="never closed and more', b: "token='open" }, secretArgKeys: [] },
  { name: 'credential flags in an argument vector', covers: 'credential flags mask the whole following element or the complete value in --token=value form', args: { argv: ['deploy', '--token', 'abc', '--password=p=w', '--api-key', 'k', '--verbose', '--name', 'public', '--auth=x'] }, secretArgKeys: [] },
  { name: 'the -p port exception', covers: 'only the ambiguous -p spelling retains the port-shaped exception', args: { a: ['docker', 'run', '-p', '8080:80', 'img'], b: ['mysql', '-p', 'hunter2'], c: ['-p=5432', '-p=secret'], d: ['ssh', '-p', '22/tcp'], e: ['-p', 2222], f: ['--password', '8080'] }, secretArgKeys: [] },
  { name: 'flags nested in objects', covers: 'argument vectors are recognized at every depth', args: { job: { steps: [{ run: ['curl', '--token=abc', 'https://x.example'] }] } }, secretArgKeys: [] },
  { name: 'unlabelled secrets stay public', covers: 'a finite shape detector, not a claim to identify arbitrary unlabelled secrets', args: { note: 'my password is hunter2', blob: 'AKIAIOSFODNN7EXAMPLE', pin: '0000' }, secretArgKeys: [] },
  { name: 'long public string tail', covers: 'the digest consumes the full surviving non-secret values, including long string tails', args: { text: `${'a'.repeat(2000)}-tail` }, secretArgKeys: [] },
  { name: 'deep nesting', covers: 'nested own enumerable data keys', args: { a: { b: { c: { d: [{ e: [{ f: { password: 'x', g: 'public' } }] }] } } } }, secretArgKeys: [] },
  { name: '__proto__ at the top level', covers: '__proto__ remains a data member in the projection', args: protoTop, secretArgKeys: [] },
  { name: '__proto__ nested', covers: 'nested own enumerable data keys, including __proto__', args: protoNested, secretArgKeys: [] },
  { name: 'key order by UTF-16 code unit', covers: 'canonical JSON: keys sorted by UTF-16 code unit, not code point or UTF-8 bytes', args: { '\u{1F600}': 1, '\uFF5E': 2, '\uE000': 3, z: 4, Z: 5, '': 6, _u: 7, '10': 8, '9': 9 }, secretArgKeys: [] },
  { name: 'numbers', covers: 'canonical JSON: ECMAScript number forms', args: { int: 100, neg: -12.5, frac: 123456789.125, tiny: 1e-7, small: 0.000001, big: 1e21, huge: 1.5e300, least: 5e-324, wide: 9007199254740994, zero: 0, exp: 1.0e2 }, secretArgKeys: [] },
  { name: 'string escapes', covers: 'canonical JSON: strings escaped only where JSON must', args: { ctl: 'tab\there\nnl\u0001\u001f\u007f', quote: 'back\\slash "q"', html: 'a<b>&c \u2028 \u2029', uni: 'e\u0301 \u00e9 \u4e2d \u{1F642}' }, secretArgKeys: [] },
  { name: 'literals and empty containers', covers: 'canonical JSON: true, false, null, [] and {}', args: { t: true, f: false, n: null, a: [], o: {}, nested: [[], [{}], [null]] }, secretArgKeys: [] },
];
