// Protocol line framing: complete lines out of arbitrary chunks, and a huge line refused once the limit is crossed.
import { describe, expect, it } from 'vitest';
import { LineBuffer, MAX_LINE_BYTES } from '../../harness/driver/stream-lines.js';

describe('LineBuffer', () => {
  it('joins lines split across chunks, drops blank lines and a trailing \\r', () => {
    const lines = new LineBuffer();
    expect(lines.push('{"a":1}\n{"b"')).toEqual({ lines: ['{"a":1}'], overflow: false });
    expect(lines.push(':2}\r\n\n  \n{"c":3}')).toEqual({ lines: ['{"b":2}'], overflow: false });
    expect(lines.bufferedBytes).toBe(7);
    expect(lines.push(Buffer.from('\n'))).toEqual({ lines: ['{"c":3}'], overflow: false });
    expect(lines.bufferedBytes).toBe(0);
  });

  it('decodes a multi-byte character split between chunks', () => {
    const bytes = Buffer.from('{"s":"é€😀"}\n');
    const lines = new LineBuffer();
    const seen: string[] = [];
    for (let i = 0; i < bytes.length; i++) seen.push(...lines.push(bytes.subarray(i, i + 1)).lines);
    expect(seen).toEqual(['{"s":"é€😀"}']);
  });

  it('counts the limit in bytes: a line of exactly the limit passes, one byte more is refused', () => {
    expect(new LineBuffer(10).push('0123456789\n')).toEqual({ lines: ['0123456789'], overflow: false });
    expect(new LineBuffer(10).push('01234567890\n')).toEqual({ lines: [], overflow: true });
    // Multi-byte: 4 × 3 bytes = 12 bytes although only 4 characters.
    expect(new LineBuffer(10).push('€€€€\n').overflow).toBe(true);
  });

  it('refuses a 100 MB line at the chunk that crosses 64 MiB, holding never more than the limit', () => {
    const chunk = Buffer.alloc(64 * 1024, 0x78);
    const lines = new LineBuffer();
    let fed = 0;
    let overflowAt = -1;
    let maxHeld = 0;
    while (fed < 100 * 1024 * 1024) {
      const { lines: done, overflow } = lines.push(chunk);
      fed += chunk.length;
      maxHeld = Math.max(maxHeld, lines.bufferedBytes);
      expect(done).toEqual([]);
      if (overflow) {
        overflowAt = fed;
        break;
      }
    }
    // Refused in proportion to the bytes read: right after the limit, not at the end of the line.
    expect(overflowAt).toBeGreaterThan(MAX_LINE_BYTES);
    expect(overflowAt).toBeLessThanOrEqual(MAX_LINE_BYTES + chunk.length);
    expect(maxHeld).toBeLessThanOrEqual(MAX_LINE_BYTES);
    // The refused line is dropped at once.
    expect(lines.bufferedBytes).toBe(0);
  });

  it('refuses an overlong line that ends inside the chunk that carries its newline', () => {
    const lines = new LineBuffer(8);
    expect(lines.push('ok\n12345')).toEqual({ lines: ['ok'], overflow: false });
    expect(lines.push('6789\nnext\n')).toEqual({ lines: [], overflow: true });
  });
});
