// The secrets red team's own §11 redactor, written from scratch: declared keys dropped, credential keys masked before
// traversal, anchored schemes, URL userinfo, credential query values and argv flags masked. `slips` turns on one author's
// mistake at a time (none: it masks what the contract requires).
export const REDACTED = '[redacted]';
const KEYS = ['authorization', 'proxyauthorization', 'password', 'passwd', 'passphrase', 'secret', 'token', 'apikey', 'xapikey', 'cookie', 'auth', 'credentials', 'privatekey', 'clientsecret', 'accesstoken'];
const PARAMS = ['accesstoken', 'token', 'apikey', 'key', 'sig', 'signature', 'password', 'secret', 'clientsecret'];
const FLAGS = ['token', 'password', 'apikey', 'secret', 'accesstoken', 'clientsecret', 'privatekey'];

/** slips: { caseSensitiveKeys?: true (keys compared as written: "authorization" only), unreservedQueryValues?: true
 * (a query value ends at the first character outside RFC 3986's unreserved set), passwordOnlyUserinfo?: true (the URL
 * parser's password is masked, its username kept) } */
export function makeRedactor(slips = {}) {
  const keyName = (k) => (slips.caseSensitiveKeys ? k.replace(/[-_]/g, '') : k.toLowerCase().replace(/[^a-z0-9]/g, ''));
  const isCredentialKey = (k) => KEYS.includes(keyName(k)) || /(password|secret|token|apikey)$/.test(keyName(k));
  const isCredentialParam = (n) => PARAMS.includes(keyName(safeDecode(n))) || isCredentialKey(safeDecode(n));
  const queryValue = slips.unreservedQueryValues ? /([?&;])([^=&#?\s;]+)=([A-Za-z0-9._~-]*)/g : /([?&;#])([^=&#?\s;]+)=([^&#\s;]*)/g;

  const userinfo = (text) =>
    text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#]*)/gi, (whole, scheme, authority) => {
      const at = authority.lastIndexOf('@');
      if (at < 0) return whole;
      if (!slips.passwordOnlyUserinfo) return `${scheme}${REDACTED}${authority.slice(at)}`;
      // What new URL() calls the password: after the first ':' of the userinfo; a bare token is the "username".
      const info = authority.slice(0, at);
      const colon = info.indexOf(':');
      return colon < 0 ? whole : `${scheme}${info.slice(0, colon)}:${REDACTED}${authority.slice(at)}`;
    });

  const redactString = (text) => {
    const scheme = /^\s*(bearer|basic|token)\s+\S/i.exec(text);
    if (scheme) return `${scheme[1][0].toUpperCase()}${scheme[1].slice(1).toLowerCase()} ${REDACTED}`;
    return userinfo(quoted(text)).replace(queryValue, (m, sep, name) => (isCredentialParam(name) ? `${sep}${name}=${REDACTED}` : m));
  };

  // key: "value", key='value', "key": "value": masked through the real closing quote (escapes honoured), or to the end.
  const quoted = (text) => {
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
  };

  const argv = (items) => {
    const out = [...items];
    for (let i = 0; i < out.length; i++) {
      // -p is a password or a port: a port-shaped value (8080, 80:80, 53/udp) stays.
      if (out[i] === '-p' && i + 1 < out.length) {
        const next = out[i + 1];
        if (!(typeof next === 'number' || (typeof next === 'string' && /^(\d{1,3}(\.\d{1,3}){3}:)?\d{1,5}(:\d{1,5})?(\/(tcp|udp))?$/.test(next)))) out[i + 1] = REDACTED;
        i++;
        continue;
      }
      const m = typeof out[i] === 'string' ? /^--([A-Za-z][\w-]*)(=.*)?$/s.exec(out[i]) : null;
      if (!m || !FLAGS.includes(m[1].toLowerCase().replace(/[^a-z0-9]/g, ''))) continue;
      if (m[2] !== undefined) out[i] = `--${m[1]}=${REDACTED}`;
      else if (i + 1 < out.length) out[++i] = REDACTED;
    }
    return out;
  };

  const redactValue = (value) => {
    if (typeof value === 'string') return redactString(value);
    if (Array.isArray(value)) return argv(value).map((v) => (v === REDACTED ? v : redactValue(v)));
    if (value !== null && typeof value === 'object') return members(value);
    return value;
  };
  const members = (obj, drop = []) => {
    const out = {};
    for (const k of Object.keys(obj)) {
      if (drop.includes(k)) continue;
      Object.defineProperty(out, k, { value: isCredentialKey(k) ? REDACTED : redactValue(obj[k]), enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  const redactArgs = (args, secretArgKeys) => members(args, secretArgKeys);
  return { redactArgs, redactValue, redactString, isCredentialKey, isCredentialParam, REDACTED };
}

function safeDecode(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
