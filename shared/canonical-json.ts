// Canonical JSON as RFC 8785 (JCS) defines it, and SHA-256 over it: the basis of every digest, hash and signature.
// node:crypto, loaded at the first hash, not with this file: the harness hashes whole reports. The reference journal's
// drivers load this file for canonicalJson but hash with reference-impl/sha256.ts (node:crypto costs a driver ~5 ms).
import type { hash as Hash } from 'node:crypto';

/**
 * Serializes a JSON value as RFC 8785 (JSON Canonicalization Scheme): no whitespace, object members
 * sorted by the UTF-16 code units of their names, strings and numbers exactly as ECMAScript's
 * JSON.stringify writes them (JCS defines its number form as ECMAScript's Number-to-String, so -0 is 0
 * and 1e21 is 1e+21). JCS input is I-JSON: a non-finite number, a lone surrogate in a string or a
 * name (RFC 8785 §3.2.2.2: it MUST be an error), or a value JSON has no form for is refused with its
 * path. Members whose value is undefined are absent, as in JSON.stringify.
 */
export function canonicalJson(value: unknown): string {
  try {
    return serialize(value);
  } catch (error) {
    // Paths cost as much as the serialization itself, so they are built only to say where a value is not JSON.
    if (error === NOT_JSON) return serializeWithPaths(value, '$');
    throw error;
  }
}

/** SHA-256 hex of a string's UTF-8 bytes. */
export function sha256Hex(text: string): string {
  hash ??= process.getBuiltinModule('node:crypto').hash;
  return hash('sha256', text, 'hex');
}
let hash: typeof Hash | undefined;

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

const NOT_JSON = new TypeError('canonicalJson: not JSON');

function serialize(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      if (!isWellFormed(value)) throw NOT_JSON;
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw NOT_JSON;
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + serialize(value[i]);
        return `${out}]`;
      }
      // Own enumerable keys only, read as data: a "__proto__" key stays an ordinary member.
      const keys = Object.keys(value).sort();
      let out = '{';
      for (const key of keys) {
        const member = (value as Record<string, unknown>)[key];
        if (member === undefined) continue;
        if (!isWellFormed(key)) throw NOT_JSON;
        out += `${out === '{' ? '' : ','}${JSON.stringify(key)}:${serialize(member)}`;
      }
      return `${out}}`;
    }
    default:
      throw NOT_JSON;
  }
}

// The same walk with the path of every value, for the error message.
function serializeWithPaths(value: unknown, path: string): string {
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
      if (Array.isArray(value)) return `[${value.map((v, i) => serializeWithPaths(v, `${path}[${i}]`)).join(',')}]`;
      // Own enumerable keys only, read as data: a "__proto__" key stays an ordinary member.
      // Array.prototype.sort without a comparator orders by UTF-16 code units, which is what JCS §3.2.3 asks.
      const keys = Object.keys(value).sort();
      const parts: string[] = [];
      for (const key of keys) {
        const member = (value as Record<string, unknown>)[key];
        if (member === undefined) continue;
        const at = `${path}.${key}`;
        parts.push(`${string(key, at)}:${serializeWithPaths(member, at)}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      throw new TypeError(`canonicalJson: ${typeof value} is not JSON at ${path}`);
  }
}

// String.prototype.isWellFormed (native in Node 20) is the fast test; the regex is for older runtimes.
function isWellFormed(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return native === undefined ? !hasLoneSurrogate(text) : native.call(text);
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
