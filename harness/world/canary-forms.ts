// A canary as bytes a journal may have re-encoded before writing: base64, base64url, hex and UTF-16.
import { readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { canaryId } from '../secrets/canary-nonce.js';

// Shorter runs cannot hold a whole canary (16 bytes or more) in any of these encodings.
const BASE64_RUN = /[A-Za-z0-9+/_-]{20,}/g;
const HEX_RUN = /[0-9A-Fa-f]{32,}/g;

/**
 * Every decoding of `data` a journal's re-encoded copy could hide in: each base64 or base64url run decoded from each of
 * its 4 character offsets (a record header may precede the encoded text), each hex run from both nibble offsets, and
 * the whole file read as UTF-16 in both byte orders. A canary is then found whole in one of them, never by a fragment.
 */
export function decodedViews(data: Buffer): Buffer[] {
  const text = data.toString('latin1');
  const views: Buffer[] = [];
  for (const [run] of text.matchAll(BASE64_RUN)) {
    for (let offset = 0; offset < 4; offset++) views.push(Buffer.from(run.slice(offset).replace(/[-_]/g, (c) => (c === '-' ? '+' : '/')), 'base64'));
  }
  for (const [run] of text.matchAll(HEX_RUN)) {
    for (let offset = 0; offset < 2; offset++) {
      const even = run.slice(offset, offset + Math.floor((run.length - offset) / 2) * 2);
      views.push(Buffer.from(even, 'hex'));
    }
  }
  for (let offset = 0; offset < 2; offset++) {
    const even = Buffer.from(data.subarray(offset, offset + Math.floor((data.length - offset) / 2) * 2));
    views.push(Buffer.from(even.toString('utf16le'), 'utf8'), Buffer.from(even.swap16().toString('utf16le'), 'utf8'));
  }
  return views;
}

/** True when `data` holds `canary` in one of its encoded forms (see decodedViews). */
export function holdsEncoded(data: Buffer, canary: string, views = decodedViews(data)): boolean {
  const needle = Buffer.from(canary, 'utf8');
  return views.some((v) => v.includes(needle));
}

/** Which canaries appear re-encoded in which file (by SHA-256 of the canary, never by value). */
export function scanEncodedForms(files: readonly string[], canaries: readonly string[], base?: string): Array<{ file: string; canary: number; canarySha256: string }> {
  const hits: Array<{ file: string; canary: number; canarySha256: string }> = [];
  for (const file of files) {
    const data = read(file);
    if (data.length === 0) continue;
    const views = decodedViews(data);
    canaries.forEach((c, i) => {
      if (holdsEncoded(data, c, views)) hits.push({ file: base === undefined ? file : relative(base, file), canary: i, canarySha256: canaryId(c) });
    });
  }
  return hits;
}

function read(file: string): Buffer {
  try {
    return statSync(file).isFile() ? readFileSync(file) : Buffer.alloc(0);
  } catch {
    return Buffer.alloc(0);
  }
}
