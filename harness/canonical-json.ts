// Canonical JSON (sorted keys, no insignificant whitespace) and SHA-256 over it: the digest and hash basis.
// node:crypto, not a JS hash: every driver of the reference journal loads this file, and a JS hash costs ~12 ms of start-up.
import { hash } from 'node:crypto';

/** Serializes a JSON value with object keys sorted by code unit and no whitespace; rejects non-JSON values. */
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
  return hash('sha256', text, 'hex');
}

const NOT_JSON = new TypeError('canonicalJson: not JSON');

function serialize(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
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
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: non-finite number at ${path}`);
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((v, i) => serializeWithPaths(v, `${path}[${i}]`)).join(',')}]`;
      // Own enumerable keys only, read as data: a "__proto__" key stays an ordinary member.
      const keys = Object.keys(value).sort();
      const parts: string[] = [];
      for (const key of keys) {
        const member = (value as Record<string, unknown>)[key];
        if (member === undefined) continue;
        parts.push(`${JSON.stringify(key)}:${serializeWithPaths(member, `${path}.${key}`)}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      throw new TypeError(`canonicalJson: ${typeof value} is not JSON at ${path}`);
  }
}
