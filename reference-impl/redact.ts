// §11 redaction: the projection of tool arguments that the args digest is computed over.
// A finite shape detector: declared secret keys are dropped, recognized credential shapes masked.

export const REDACTED = '[redacted]';

/** Builds the redacted projection: top-level secret keys removed, credential shapes masked everywhere. */
export function redactArgs(args: Readonly<Record<string, unknown>>, secretArgKeys: readonly string[]): Record<string, unknown> {
  const secret = new Set(secretArgKeys);
  const out = dataObject();
  for (const key of Object.keys(args)) {
    if (secret.has(key)) continue;
    defineData(out, key, redactMember(key, args[key]));
  }
  return out;
}

/** Redacts any JSON value; arrays are treated as possible argv vectors. */
export function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redactString(value);
  if (Array.isArray(value)) return redactArgv(value).map((element) => redactValue(element));
  if (value !== null && typeof value === 'object') {
    const out = dataObject();
    for (const key of Object.keys(value)) defineData(out, key, redactMember(key, (value as Record<string, unknown>)[key]));
    return out;
  }
  return value;
}

/** Masks credential shapes inside one string. */
export function redactString(text: string): string {
  const scheme = /^\s*(bearer|basic|token)\s+\S/i.exec(text);
  if (scheme) return `${canonicalScheme(scheme[1] ?? '')} ${REDACTED}`;
  // Each mask needs a character its pattern cannot match without; most strings carry none, and skip the regexes.
  const quoted = (text.includes('"') || text.includes("'")) && (text.includes(':') || text.includes('=')) ? maskQuotedValues(text) : text;
  const userinfo = quoted.includes('@') ? maskUrlUserinfo(quoted) : quoted;
  return userinfo.includes('=') ? maskQueryValues(userinfo) : userinfo;
}

/** True for a structural credential key: its whole value is masked before traversal. */
export function isCredentialKey(key: string): boolean {
  // Argument keys repeat across every prepare; the answer is pure, so it is remembered (bounded).
  let known = credentialKeyMemo.get(key);
  if (known === undefined) {
    const k = normalize(key);
    known = CREDENTIAL_KEYS.has(k) || CREDENTIAL_KEY_SUFFIXES.some((suffix) => k.endsWith(suffix));
    if (credentialKeyMemo.size >= 4096) credentialKeyMemo.clear();
    credentialKeyMemo.set(key, known);
  }
  return known;
}

const credentialKeyMemo = new Map<string, boolean>();

/** True for a URL query parameter whose value is an opaque credential. */
export function isCredentialParam(name: string): boolean {
  const k = normalize(name);
  return CREDENTIAL_PARAMS.has(k) || isCredentialKey(name);
}

const CREDENTIAL_KEYS = new Set([
  'password', 'passwd', 'passphrase', 'token', 'secret', 'apikey', 'xapikey', 'authorization',
  'proxyauthorization', 'auth', 'cookie', 'setcookie', 'credential', 'credentials', 'privatekey',
  'clientsecret', 'secretkey', 'accesskey', 'sessiontoken',
]);
const CREDENTIAL_KEY_SUFFIXES = ['password', 'secret', 'apikey', 'token', 'privatekey', 'credentials'];
const CREDENTIAL_PARAMS = new Set(['key', 'sig', 'signature', 'pwd', 'xamzsignature', 'xamzcredential', 'xamzsecuritytoken', 'accesstoken']);
const SECRET_FLAGS = new Set(['token', 'password', 'passwd', 'apikey', 'secret', 'accesstoken', 'authtoken', 'clientsecret', 'privatekey', 'auth']);

function redactMember(key: string, value: unknown): unknown {
  return isCredentialKey(key) ? REDACTED : redactValue(value);
}

// Credential flags mask the whole following element or the value part of --flag=value.
function redactArgv(items: readonly unknown[]): unknown[] {
  const out = [...items];
  for (let i = 0; i < out.length; i++) {
    const item = out[i];
    if (typeof item !== 'string') continue;
    const long = /^--?([A-Za-z][A-Za-z0-9_-]*)(=([\s\S]*))?$/.exec(item);
    if (!long) continue;
    const name = long[1] ?? '';
    const isP = item.startsWith('-p') && !item.startsWith('--') && name === 'p';
    const named = item.startsWith('--') && SECRET_FLAGS.has(normalize(name));
    if (!named && !isP) continue;
    if (long[2] !== undefined) {
      if (named || !isPortShaped(long[3] ?? '')) out[i] = `${item.slice(0, item.indexOf('='))}=${REDACTED}`;
    } else if (i + 1 < out.length) {
      const next = out[i + 1];
      if (named || !(typeof next === 'string' && isPortShaped(next)) && typeof next !== 'number') out[i + 1] = REDACTED;
      i++;
    }
  }
  return out;
}

function isPortShaped(value: string): boolean {
  return /^(\d{1,5})(:\d{1,5})?(\/(tcp|udp))?$/.test(value) || /^(\d{1,3}(\.\d{1,3}){3}:)?\d{1,5}:\d{1,5}$/.test(value);
}

// key: "value" / key='value' / "key": "value": the value is masked through its real closing quote.
function maskQuotedValues(text: string): string {
  const opener = /(["']?)([A-Za-z0-9_.-]+)\1\s*[:=]\s*(["'])/g;
  let out = '';
  let last = 0;
  for (let m = opener.exec(text); m !== null; m = opener.exec(text)) {
    if (!isCredentialKey(m[2] ?? '')) continue;
    const quote = m[3] ?? '"';
    const valueStart = m.index + m[0].length;
    let end = valueStart;
    while (end < text.length && text[end] !== quote) end += text[end] === '\\' ? 2 : 1;
    // An unterminated value is masked to the end: no credential suffix may survive.
    const close = Math.min(end, text.length);
    out += text.slice(last, valueStart) + REDACTED;
    last = close;
    opener.lastIndex = Math.max(close, opener.lastIndex);
  }
  return out + text.slice(last);
}

// scheme://userinfo@host: everything up to the authority's last '@' is userinfo.
function maskUrlUserinfo(text: string): string {
  return text.replace(/([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^\s/?#]*)/g, (whole, scheme: string, authority: string) => {
    const at = authority.lastIndexOf('@');
    return at < 0 ? whole : `${scheme}${REDACTED}${authority.slice(at)}`;
  });
}

// ?name=value / &name=value: masked through the next delimiter, whatever the length.
function maskQueryValues(text: string): string {
  return text.replace(/([?&;#])([^=&#?\s;]+)=([^&#\s;]*)/g, (whole, sep: string, name: string) =>
    isCredentialParam(decodeSafe(name)) ? `${sep}${name}=${REDACTED}` : whole,
  );
}

function canonicalScheme(raw: string): string {
  const lower = raw.toLowerCase();
  return lower === 'bearer' ? 'Bearer' : lower === 'basic' ? 'Basic' : 'Token';
}

function normalize(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function decodeSafe(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

// An ordinary object (a null-prototype one is a slow dictionary); defineData keeps "__proto__" an own member.
function dataObject(): Record<string, unknown> {
  return {};
}

// Assignment, except for "__proto__": assigning that would set the prototype instead of defining a member.
// (defineProperty for every key would cost five times as much.)
function defineData(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
