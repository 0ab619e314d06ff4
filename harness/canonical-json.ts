// Canonical JSON (sorted keys, no insignificant whitespace) and SHA-256 over it: the digest and hash basis.
// node:crypto, not a JS hash: every driver of the reference journal loads this file, and a JS hash costs ~12 ms of start-up.
import { createHash } from 'node:crypto';

/** Serializes a JSON value with object keys sorted by code unit and no whitespace; rejects non-JSON values. */
export function canonicalJson(value: unknown): string {
  return serialize(value, '$');
}

/** SHA-256 hex of a string's UTF-8 bytes. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function serialize(value: unknown, path: string): string {
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
      if (Array.isArray(value)) return `[${value.map((v, i) => serialize(v, `${path}[${i}]`)).join(',')}]`;
      // Own enumerable keys only, read as data: a "__proto__" key stays an ordinary member.
      const keys = Object.keys(value).sort();
      const parts: string[] = [];
      for (const key of keys) {
        const member = (value as Record<string, unknown>)[key];
        if (member === undefined) continue;
        parts.push(`${JSON.stringify(key)}:${serialize(member, `${path}.${key}`)}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      throw new TypeError(`canonicalJson: ${typeof value} is not JSON at ${path}`);
  }
}
