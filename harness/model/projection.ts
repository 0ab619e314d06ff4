// §11 from the outside: when two tool-argument values must be the same call, must differ, or may go either way.
// Written from the contract text alone; it never imports an implementation's redaction (an oracle that does proves nothing).

/** Whether two argument values are the same call for every detector the contract allows. */
export type SameCall = 'same' | 'different' | 'either';

/**
 * Compares two calls' arguments as §11 sees them: declared secret keys excluded, recognized credential shapes masked.
 * `same`: equal for any conforming detector; `different`: a surviving public value differs; `either`: they differ only
 * where the contract does not say whether a detector must recognize the shape (an unnamed credential-looking key, say).
 */
export function sameCall(a: ArgsView, b: ArgsView): SameCall {
  const strictA = canonical(project(a, 'strict'));
  const strictB = canonical(project(b, 'strict'));
  if (strictA === strictB) return 'same';
  return canonical(project(a, 'loose')) === canonical(project(b, 'loose')) ? 'either' : 'different';
}

export interface ArgsView {
  readonly args: Readonly<Record<string, unknown>>;
  readonly secretArgKeys: readonly string[];
}

/**
 * The projection a detector computes. `strict` masks only what the contract names (so an ambiguous shape survives),
 * `loose` masks ambiguous shapes too; every conforming detector lies between the two.
 */
export function project(view: ArgsView, mode: 'strict' | 'loose'): unknown {
  const secret = new Set(view.secretArgKeys);
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(view.args)) {
    if (secret.has(key)) continue;
    define(out, key, member(key, view.args[key], mode));
  }
  return out;
}

/** What the contract makes of one object key: a structural credential key (masked whole), possibly one, or public. */
export function keyClass(key: string): 'credential' | 'ambiguous' | 'public' {
  const k = normalize(key);
  if (CREDENTIAL_KEYS.has(k)) return 'credential';
  return CREDENTIAL_HINTS.some((hint) => k.includes(hint)) || SHORT_CREDENTIAL_NAMES.has(k) ? 'ambiguous' : 'public';
}

/** The credential key names the model is sure any detector recognizes (normalized: lower case, letters and digits). */
export const CREDENTIAL_KEYS: ReadonlySet<string> = new Set([
  'password', 'secret', 'token', 'apikey', 'authorization', 'accesstoken', 'clientsecret', 'privatekey',
]);
/** URL query parameters whose values the model is sure are opaque credentials. */
export const CREDENTIAL_PARAMS: ReadonlySet<string> = new Set(['token', 'accesstoken', 'apikey', 'password', 'secret', 'clientsecret']);
/** Argument-vector flags the model is sure name a credential (`--token x`, `--password=x`). */
export const CREDENTIAL_FLAGS: ReadonlySet<string> = new Set(['token', 'password', 'secret', 'apikey', 'accesstoken']);
// Substrings that make a name look like a credential without the contract naming it: a detector may or may not mask it.
// Whole names of credentials no hint covers (a PIN, a one-time code, a card's check digits): ambiguous too.
const SHORT_CREDENTIAL_NAMES: ReadonlySet<string> = new Set(['pin', 'otp', 'cvv', 'cvc']);
const CREDENTIAL_HINTS = ['pass', 'secret', 'token', 'auth', 'key', 'cookie', 'credential', 'sig', 'pwd', 'session', 'private', 'cert', 'bearer', 'nonce'];

const MASK = '\u0000masked';
const UNSURE = '\u0000unsure';

function member(key: string, value: unknown, mode: 'strict' | 'loose'): unknown {
  const cls = keyClass(key);
  // "A recognized structural credential key masks its entire value before traversal."
  if (cls === 'credential') return MASK;
  if (cls === 'ambiguous' && mode === 'loose') return UNSURE;
  return walk(value, mode);
}

function walk(value: unknown, mode: 'strict' | 'loose'): unknown {
  if (typeof value === 'string') return projectString(value, mode);
  if (Array.isArray(value)) return argv(value, mode).map((v) => (v === MASK ? v : walk(v, mode)));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    // Own data keys, "__proto__" included, stay members of the projection.
    for (const key of Object.keys(value)) define(out, key, member(key, (value as Record<string, unknown>)[key], mode));
    return out;
  }
  return value;
}

// "Credential flags in an argument vector mask the whole following element or the complete value in --token=value form.
// Only the ambiguous -p spelling retains the existing port-shaped exception."
function argv(items: readonly unknown[], mode: 'strict' | 'loose'): unknown[] {
  const out = [...items];
  for (let i = 0; i < out.length; i++) {
    const item = out[i];
    if (typeof item !== 'string') continue;
    const flag = /^(--?)([A-Za-z][A-Za-z0-9_-]*)(?:=([\s\S]*))?$/.exec(item);
    if (!flag) continue;
    const [, dashes, name = '', inline] = flag;
    const isP = dashes === '-' && name === 'p';
    const named = dashes === '--' && CREDENTIAL_FLAGS.has(normalize(name));
    const hinted = dashes === '--' && !named && CREDENTIAL_HINTS.some((h) => normalize(name).includes(h));
    if (!named && !isP && !(hinted && mode === 'loose')) continue;
    const sure = named || isP ? MASK : UNSURE;
    if (inline !== undefined) {
      if (!isP || !portShaped(inline, mode)) out[i] = `${item.slice(0, item.indexOf('='))}=${sure}`;
      continue;
    }
    const next = out[i + 1];
    if (i + 1 < out.length && !(isP && (typeof next === 'number' || (typeof next === 'string' && portShaped(next, mode))))) out[i + 1] = sure;
    i++;
  }
  return out;
}

/**
 * "Port-shaped" as docs/protocol.md reads it (§11 does not define it): a bare port number (digits, or a JSON number)
 * is port-shaped for every detector; a port mapping or range (`5432:5432`, `127.0.0.1:5432:5432`, `8080/tcp`) may be
 * read either way, so it survives in the strict projection and is masked in the loose one; anything else is masked.
 */
export function portShaped(value: string, mode: 'strict' | 'loose'): boolean {
  if (/^\d{1,5}$/.test(value)) return true;
  if (mode === 'loose') return false;
  return /^\d{1,5}(:\d{1,5})?(\/(tcp|udp))?$/.test(value) || /^(\d{1,3}(\.\d{1,3}){3}:)?\d{1,5}:\d{1,5}(\/(tcp|udp))?$/.test(value);
}

function projectString(text: string, mode: 'strict' | 'loose'): string {
  // "Only an anchored Bearer, Basic or Token scheme survives as its canonical label followed by [redacted]."
  const scheme = /^\s*(bearer|basic|token)\s+\S/i.exec(text);
  if (scheme) return `${(scheme[1] ?? '').toLowerCase()} ${MASK}`;
  // Inline media may be redacted by a detector; the contract leaves it a deliberate projection equality.
  if (/^data:/i.test(text)) return mode === 'loose' ? UNSURE : text;
  let out = quoted(text, mode);
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(out)) out = url(out, mode);
  else if (mode === 'loose' && /:\/\/|[?&][^=\s]+=/.test(out)) return UNSURE;
  return out;
}

// A whole-string URL: userinfo masked through the authority's last '@', credential query values through their delimiter.
function url(text: string, mode: 'strict' | 'loose'): string {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)([\s\S]*)$/.exec(text);
  if (!m) return text;
  const [, scheme = '', authority = '', rest = ''] = m;
  const at = authority.lastIndexOf('@');
  const host = at < 0 ? authority : `${MASK}${authority.slice(at)}`;
  const tail = rest.replace(/([?&;])([^=&#;]+)=([^&#;]*)/g, (whole, sep: string, name: string) => {
    const k = normalize(decode(name));
    // A percent-encoded name (access%5Ftoken) is the named parameter to a URL parser, but §11 does not say a detector
    // must decode names first ("a finite shape detector"): a credential only once decoded may be masked or survive.
    if (CREDENTIAL_PARAMS.has(normalize(name))) return `${sep}${name}=${MASK}`;
    if (CREDENTIAL_PARAMS.has(k)) return mode === 'loose' ? `${sep}${name}=${UNSURE}` : whole;
    if (mode === 'loose' && CREDENTIAL_HINTS.some((h) => k.includes(h))) return `${sep}${name}=${UNSURE}`;
    return whole;
  });
  return `${scheme}${host}${tail}`;
}

// "Quoted secret-key values honor escaped quotes and backslashes through the actual closing quote."
function quoted(text: string, mode: 'strict' | 'loose'): string {
  // A key starts where a word does: any later start inside the word has the same tail and fails as the word's did, and
  // trying them all made long unbroken values (base64, hex) cost quadratic time.
  const opener = /(["']?)(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]+)\1\s*[:=]\s*(["'])/g;
  let out = '';
  let last = 0;
  for (let m = opener.exec(text); m !== null; m = opener.exec(text)) {
    const cls = keyClass(m[2] ?? '');
    if (cls === 'public' || (cls === 'ambiguous' && mode === 'strict')) continue;
    const quote = m[3] ?? '"';
    const start = m.index + m[0].length;
    let end = start;
    while (end < text.length && text[end] !== quote) end += text[end] === '\\' ? 2 : 1;
    out += text.slice(last, start) + (cls === 'credential' ? MASK : UNSURE);
    last = Math.min(end, text.length);
    opener.lastIndex = Math.max(last, opener.lastIndex);
  }
  return out + text.slice(last);
}

function normalize(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function decode(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

// Sorted keys; only equality is ever asked of it, so no hashing is needed.
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** Equality of two JSON values whatever their key order (output-mapping configurations, recorded results). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}
