// Splitting a child's stdout into protocol lines: linear in the bytes read, with a hard limit on a line's length.

/** Longest protocol line accepted (bytes); a larger one is a violation rather than unbounded memory. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/**
 * Accumulates chunks and yields complete lines (without newline). Each byte is looked at once: only the
 * new chunk is searched for a newline and an unfinished line is kept as a list of chunks, so a huge line
 * costs time and memory in proportion to its bytes, up to the limit, where it is refused and dropped.
 */
export class LineBuffer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly maxLineBytes = MAX_LINE_BYTES) {}

  /** Bytes of the unfinished line held in memory (never more than the limit). */
  get bufferedBytes(): number {
    return this.pendingBytes;
  }

  /** Feeds one chunk; returns the complete lines it finished, or `overflow` once a line grew past the limit. */
  push(chunk: Buffer | string): { lines: string[]; overflow: boolean } {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    const lines: string[] = [];
    let start = 0;
    for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
      const length = this.pendingBytes + (nl - start);
      if (length > this.maxLineBytes) return this.overflow(lines);
      // A newline byte never occurs inside a multi-byte UTF-8 sequence, so each line decodes on its own.
      const bytes = this.pendingBytes === 0 ? buf.subarray(start, nl) : Buffer.concat([...this.pending, buf.subarray(start, nl)], length);
      this.pending = [];
      this.pendingBytes = 0;
      const line = bytes.toString('utf8');
      const text = line.endsWith('\r') ? line.slice(0, -1) : line;
      if (text.trim() !== '') lines.push(text);
      start = nl + 1;
    }
    if (start < buf.length) {
      this.pending.push(buf.subarray(start));
      this.pendingBytes += buf.length - start;
    }
    return this.pendingBytes > this.maxLineBytes ? this.overflow(lines) : { lines, overflow: false };
  }

  private overflow(lines: string[]): { lines: string[]; overflow: boolean } {
    // The refused line is dropped at once: what was kept of it is no longer needed as evidence.
    this.pending = [];
    this.pendingBytes = 0;
    return { lines, overflow: true };
  }
}
