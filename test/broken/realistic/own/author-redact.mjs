// The author's own §11 redactor: declared secret keys dropped, credential keys, schemes, userinfo, query tokens,
// quoted secret values and argv flags masked. `options` says how a few details were written.
const CREDENTIAL_KEYS = new Set(['password', 'passwd', 'passphrase', 'secret', 'token', 'apikey', 'authorization', 'auth', 'cookie', 'credential', 'credentials', 'privatekey', 'clientsecret', 'accesskey', 'accesstoken', 'sessiontoken']);
const SECRET_FLAGS = new Set(['token', 'password', 'passwd', 'secret', 'apikey', 'accesstoken', 'authtoken', 'clientsecret']);
export const REDACTED = '[redacted]';

export function makeRedactor(options) {
  const isCredentialKey = (key) => {
    const k = key.toLowerCase().replace(/[^a-z0-9]/g, '');
    return CREDENTIAL_KEYS.has(k) || /(password|secret|token|apikey|privatekey)$/.test(k);
  };
  const isCredentialParam = (name) => isCredentialKey(name) || ['key', 'sig', 'signature', 'pwd'].includes(name.toLowerCase());
  // Userinfo ends at the '@' before the host.
  const userinfo = options.userinfoThroughFirstAt ? /([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi : /([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]*@/gi;

  const redactString = (text) => {
    const scheme = /^\s*(bearer|basic|token)\s+\S/i.exec(text);
    if (scheme) return `${scheme[1][0].toUpperCase()}${scheme[1].slice(1).toLowerCase()} ${REDACTED}`;
    return text
      .replace(options.quoteEndsAtFirstQuote ? /((["']?)([A-Za-z0-9_.-]+)\2\s*[:=]\s*)(["'])((?:(?!\4)[\s\S])*)\4/g : /((["']?)([A-Za-z0-9_.-]+)\2\s*[:=]\s*)(["'])((?:\\[\s\S]|(?!\4)[\s\S])*)\4/g, (m, pre, _q, key, quote) => (isCredentialKey(key) ? `${pre}${quote}${REDACTED}${quote}` : m))
      .replace(userinfo, `$1${REDACTED}@`)
      .replace(/([?&;#])([^=&#?\s;]+)=([^&#\s;]*)/g, (m, sep, name) => (isCredentialParam(name) ? `${sep}${name}=${REDACTED}` : m));
  };

  const argv = (items) =>
    items.map((item, i) => {
      const prev = items[i - 1];
      if (typeof item === 'string' && /^--[A-Za-z][\w-]*=/.test(item) && SECRET_FLAGS.has(item.slice(2, item.indexOf('=')).toLowerCase().replace(/[^a-z]/g, ''))) return `${item.slice(0, item.indexOf('='))}=${REDACTED}`;
      if (typeof prev === 'string' && /^--[A-Za-z][\w-]*$/.test(prev) && SECRET_FLAGS.has(prev.slice(2).toLowerCase().replace(/[^a-z]/g, ''))) return REDACTED;
      if (prev === '-p' && !(typeof item === 'number' || /^\d{1,5}(:\d{1,5})?(\/(tcp|udp))?$/.test(String(item)) || /^(\d{1,3}(\.\d{1,3}){3}:)?\d{1,5}:\d{1,5}$/.test(String(item)))) return REDACTED;
      return item;
    });

  const redactValue = (value) => {
    if (typeof value === 'string') return redactString(value);
    if (Array.isArray(value)) return options.arraysAreData ? value : argv(value).map((v) => (v === REDACTED ? v : redactValue(v)));
    if (value !== null && typeof value === 'object') {
      const out = Object.create(null);
      for (const key of Object.keys(value)) Object.defineProperty(out, key, { value: isCredentialKey(key) ? REDACTED : redactValue(value[key]), enumerable: true, writable: true, configurable: true });
      return out;
    }
    return value;
  };

  const redactArgs = (args, secretArgKeys) => {
    const secret = new Set(secretArgKeys);
    const out = Object.create(null);
    for (const key of Object.keys(args)) if (!secret.has(key)) Object.defineProperty(out, key, { value: isCredentialKey(key) ? REDACTED : redactValue(args[key]), enumerable: true, writable: true, configurable: true });
    return out;
  };

  return { redactArgs, redactValue, redactString, isCredentialKey, isCredentialParam };
}
