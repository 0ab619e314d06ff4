// Canonical JSON as RFC 8785 (JCS) defines it, and SHA-256 over it: the basis of every digest, hash and signature.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * Serializes a JSON value as RFC 8785 (JSON Canonicalization Scheme): no whitespace, object members
 * sorted by the UTF-16 code units of their names, strings and numbers exactly as ECMAScript's
 * JSON.stringify writes them (JCS defines its number form as ECMAScript's Number-to-String, so -0 is 0
 * and 1e21 is 1e+21). JCS input is I-JSON: a non-finite number, a lone surrogate in a string or a
 * name (RFC 8785 §3.2.2.2: it MUST be an error), or a value JSON has no form for is refused with its
 * path. Members whose value is undefined are absent, as in JSON.stringify.
 */
export function canonicalJson(value: unknown): string {
  return serialize(value, '$');
}

/** SHA-256 hex of a string's UTF-8 bytes. */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/**
 * The value with every lone surrogate (in strings and member names) replaced by U+FFFD, so it can be
 * canonicalized: text an implementation sent cannot be allowed to make a report unsealable.
 */
export function wellFormedJson<T>(value: T): T {
  return rewrite(value) as T;
}

/** Whether a string holds a lone surrogate: UTF-8 cannot carry it and I-JSON forbids it. */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

function serialize(value: unknown, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return string(value, path);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: non-finite number at ${path}`);
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((v, i) => serialize(v, `${path}[${i}]`)).join(',')}]`;
      // Own enumerable keys only, read as data: a "__proto__" key stays an ordinary member.
      // Array.prototype.sort without a comparator orders by UTF-16 code units, which is what JCS §3.2.3 asks.
      const keys = Object.keys(value).sort();
      const parts: string[] = [];
      for (const key of keys) {
        const member = (value as Record<string, unknown>)[key];
        if (member === undefined) continue;
        const at = `${path}.${key}`;
        parts.push(`${string(key, at)}:${serialize(member, at)}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      throw new TypeError(`canonicalJson: ${typeof value} is not JSON at ${path}`);
  }
}

function string(text: string, path: string): string {
  if (hasLoneSurrogate(text)) throw new TypeError(`canonicalJson: a lone surrogate at ${path} is not I-JSON (RFC 8785 §3.2.2.2)`);
  return JSON.stringify(text);
}

function rewrite(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(LONE_SURROGATES, '\uFFFD');
  if (Array.isArray(value)) return value.map(rewrite);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      // defineProperty, not assignment: a "__proto__" member must stay data.
      Object.defineProperty(out, rewrite(k) as string, { value: rewrite(v), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}
