// The §11 args digest: `v5:` + SHA-256 hex of canonical JSON (sorted keys, no whitespace) of the redacted projection.
import { createHash } from 'node:crypto';

const REDACTED = '[redacted]';
// Keys whose whole value is a credential, compared lower-case without separators.
const CREDENTIAL_KEYS = new Set(['password', 'passwd', 'passphrase', 'token', 'secret', 'apikey', 'xapikey', 'authorization', 'proxyauthorization', 'auth', 'cookie', 'setcookie', 'credential', 'credentials', 'privatekey', 'clientsecret', 'secretkey', 'accesskey', 'sessiontoken']);
const CREDENTIAL_SUFFIXES = ['password', 'secret', 'apikey', 'token', 'privatekey', 'credentials'];
const CREDENTIAL_PARAMS = new Set(['key', 'sig', 'signature', 'pwd', 'accesstoken', 'xamzsignature', 'xamzcredential', 'xamzsecuritytoken']);
const CREDENTIAL_FLAGS = new Set(['token', 'password', 'passwd', 'apikey', 'secret', 'accesstoken', 'authtoken', 'clientsecret', 'privatekey', 'auth']);

/** The persisted digest of a dispatch's arguments: declared secret keys excluded, credential shapes masked. */
export function argsDigest(args, secretArgKeys) {
  const secret = new Set(secretArgKeys);
  const members = Object.keys(args).filter((k) => !secret.has(k) && args[k] !== undefined).sort();
  return `v5:${sha256(`{${members.map((k) => `${JSON.stringify(k)}:${member(k, args[k])}`).join(',')}}`)}`;
}

/** The digest of a node's output-mapping configuration (absent configs hash as a value no config can be). */
export function mappingDigest(config) {
  return `v5:${sha256(config === undefined ? '"ejc-log:no-output-mapping"' : value(config))}`;
}

export function sha256(text) {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

// Serializes while it redacts, so no intermediate object (and no "__proto__" setter) is ever built.
function member(key, v) {
  return isCredentialKey(key) ? JSON.stringify(REDACTED) : value(v);
}

function value(v) {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(redactString(v));
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new TypeError('a non-finite number is not JSON');
    return JSON.stringify(v);
  }
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${maskFlags(v).map(value).join(',')}]`;
  const keys = Object.keys(v).filter((k) => v[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${member(k, v[k])}`).join(',')}}`;
}

function isCredentialKey(key) {
  const k = normal(key);
  return CREDENTIAL_KEYS.has(k) || CREDENTIAL_SUFFIXES.some((s) => k.endsWith(s));
}

function redactString(text) {
  const scheme = /^\s*(bearer|basic|token)\s+\S/i.exec(text);
  if (scheme) return `${{ bearer: 'Bearer', basic: 'Basic' }[scheme[1].toLowerCase()] ?? 'Token'} ${REDACTED}`;
  return maskQuery(maskUserinfo(maskQuoted(text)));
}

// key="value" / "key": 'value': masked through the real closing quote (an unterminated value to the end).
function maskQuoted(text) {
  const opener = /(["']?)([A-Za-z0-9_.-]+)\1\s*[:=]\s*(["'])/g;
  let out = '';
  let last = 0;
  for (let m = opener.exec(text); m !== null; m = opener.exec(text)) {
    if (!isCredentialKey(m[2])) continue;
    const start = m.index + m[0].length;
    let end = start;
    while (end < text.length && text[end] !== m[3]) end += text[end] === '\\' ? 2 : 1;
    out += text.slice(last, start) + REDACTED;
    last = Math.min(end, text.length);
    opener.lastIndex = Math.max(last, opener.lastIndex);
  }
  return out + text.slice(last);
}

function maskUserinfo(text) {
  return text.replace(/([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^\s/?#]*)/g, (whole, scheme, authority) => {
    const at = authority.lastIndexOf('@');
    return at < 0 ? whole : `${scheme}${REDACTED}${authority.slice(at)}`;
  });
}

function maskQuery(text) {
  return text.replace(/([?&;#])([^=&#?\s;]+)=([^&#\s;]*)/g, (whole, sep, name) => {
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // a malformed escape is compared as written
    }
    return CREDENTIAL_PARAMS.has(normal(decoded)) || isCredentialKey(decoded) ? `${sep}${name}=${REDACTED}` : whole;
  });
}

// --token value and --token=value: the credential part is masked. -p is a port only when what follows looks like
// one (8080, 5432:5432, 127.0.0.1:80:80, 53/udp); `mysql -p hunter2` gives a password.
function maskFlags(items) {
  const out = [...items];
  for (let i = 0; i < out.length; i++) {
    const p = typeof out[i] === 'string' ? /^-p(?:=([\s\S]*))?$/.exec(out[i]) : null;
    if (p) {
      if (p[1] !== undefined) {
        if (!portShaped(p[1])) out[i] = `-p=${REDACTED}`;
      } else if (i + 1 < out.length) {
        if (typeof out[i + 1] !== 'number' && !(typeof out[i + 1] === 'string' && portShaped(out[i + 1]))) out[i + 1] = REDACTED;
        i++;
      }
      continue;
    }
    const m = typeof out[i] === 'string' ? /^--([A-Za-z][A-Za-z0-9_-]*)(=[\s\S]*)?$/.exec(out[i]) : null;
    if (!m || !CREDENTIAL_FLAGS.has(normal(m[1]))) continue;
    if (m[2] !== undefined) out[i] = `--${m[1]}=${REDACTED}`;
    else if (i + 1 < out.length) out[++i] = REDACTED;
  }
  return out;
}

function portShaped(text) {
  return /^(\d{1,3}(\.\d{1,3}){3}:)?\d{1,5}(:\d{1,5})?(\/(tcp|udp))?$/.test(text);
}

function normal(key) {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}
