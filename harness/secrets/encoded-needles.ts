// A canary as the byte strings its re-encoded copies contain, so a large tree can be searched without decoding it.
import { gunzipSync, inflateSync, brotliDecompressSync, inflateRawSync, constants } from 'node:zlib';

const MAX_OUTPUT = 1 << 20;

/**
 * Which of `canaries` a file holds, plain, re-encoded (encodedNeedles) or in a wholly compressed file (wholeFileViews).
 * Every canary of a trial starts with the same prefix and nonce: the encoded forms of that common part are searched
 * first, once per file, so a file with no encoded copy costs about one search per form, whatever the canary count.
 */
export function canaryMatcher(canaries: readonly string[]): (data: Buffer, name: string) => number[] {
  const plain = canaries.map((c) => Buffer.from(c, 'utf8'));
  const forms = canaries.map(encodedNeedles);
  const common = commonPrefix(canaries);
  const gate = common.length >= 16 ? encodedNeedles(common) : null;
  // The common part itself gates the plain searches the same way: a file without it holds no canary as it is.
  const plainGate = common.length >= 16 ? Buffer.from(common, 'utf8') : null;
  return (data, name) => {
    const views = wholeFileViews(data, name);
    const encoded = gate === null || views.some((v) => gate.some((g) => v.includes(g)));
    const asIs = plainGate === null || views.some((v) => v.includes(plainGate));
    if (!asIs && !encoded) return [];
    return canaries.flatMap((_, i) => (views.some((v) => (asIs && v.includes(plain[i]!)) || (encoded && forms[i]!.some((f) => v.includes(f)))) ? [i] : []));
  };
}

function commonPrefix(values: readonly string[]): string {
  if (values.length < 2) return '';
  let end = 0;
  while (values.every((v) => end < v.length && v[end] === values[0]![end])) end += 1;
  return values[0]!.slice(0, end);
}

/**
 * The needles a re-encoded copy of `canary` must contain: base64 and base64url at each of the three byte alignments
 * (only the characters that depend on the canary's bytes alone), hex in both cases, UTF-16 in both byte orders and
 * percent-encoding of every byte in both cases. Searching for them costs what searching for the canary does.
 */
export function encodedNeedles(canary: string): Buffer[] {
  const bytes = Buffer.from(canary, 'utf8');
  const out = new Set<string>();
  for (let pad = 0; pad < 3; pad++) {
    const b64 = Buffer.concat([Buffer.alloc(pad), bytes]).toString('base64');
    // The first group mixes padding bits when pad > 0; the last one, the bytes that follow the copy.
    const start = pad === 0 ? 0 : 4;
    const end = Math.floor((pad + bytes.length) / 3) * 4;
    const inner = b64.slice(start, end);
    out.add(inner);
    out.add(inner.replace(/[+/]/g, (c) => (c === '+' ? '-' : '_')));
  }
  const hex = bytes.toString('hex');
  const percent = [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  for (const s of [hex, hex.toUpperCase(), percent, percent.toUpperCase()]) out.add(s);
  const needles = [...out].map((s) => Buffer.from(s, 'latin1'));
  const le = Buffer.from(canary, 'utf16le');
  return [...needles, le, Buffer.from(le).swap16()];
}

/**
 * `data` itself and, when the whole file is one compressed stream (a gzip or zlib header at its start, or a name that
 * says deflate or brotli), what it decompresses to: a rotated or archived log, a compressed dump.
 */
export function wholeFileViews(data: Buffer, name: string): Buffer[] {
  const views = [data];
  const tryDecode = (decode: () => Buffer): void => {
    try {
      const bytes = decode();
      if (bytes.length > 0) views.push(bytes);
    } catch {
      // not that kind of stream
    }
  };
  const opts = { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: MAX_OUTPUT };
  if (data[0] === 0x1f && data[1] === 0x8b) tryDecode(() => gunzipSync(data, opts));
  else if (data.length > 1 && (data[0]! & 0x0f) === 8 && ((data[0]! << 8) | data[1]!) % 31 === 0) tryDecode(() => inflateSync(data, opts));
  if (/\.(br|brotli)$/i.test(name)) tryDecode(() => brotliDecompressSync(data, { finishFlush: constants.BROTLI_OPERATION_FLUSH, maxOutputLength: MAX_OUTPUT }));
  if (/\.(deflate|zz|z|raw)$/i.test(name)) tryDecode(() => inflateRawSync(data, opts));
  return views;
}
