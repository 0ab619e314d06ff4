// Splitting a child's stdout into protocol lines and keeping a bounded tail of its stderr.
import { appendFileSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** Longest protocol line accepted; a larger one is a violation rather than unbounded memory. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Accumulates chunks and yields complete lines (without newline); reports overlong lines instead of buffering forever. */
export class LineBuffer {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';

  /** Feeds one chunk; returns the complete lines it finished, or `overflow` when a line grew past the limit. */
  push(chunk: Buffer | string): { lines: string[]; overflow: boolean } {
    this.partial += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    const parts = this.partial.split('\n');
    this.partial = parts.pop() ?? '';
    const lines = parts.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line)).filter((line) => line.trim() !== '');
    return { lines, overflow: this.partial.length > MAX_LINE_BYTES };
  }
}

/** Keeps the last `maxLines` stderr lines in memory and, when a file is given, appends every byte to it. */
export class StderrRing {
  private readonly decoder = new StringDecoder('utf8');
  private readonly lines: string[] = [];
  private partial = '';
  private fileFailed = false;

  constructor(
    private readonly file: string | undefined,
    private readonly maxLines = 500,
  ) {}

  push(chunk: Buffer | string): void {
    this.appendToFile(chunk);
    this.partial += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    const parts = this.partial.split('\n');
    this.partial = parts.pop() ?? '';
    // A driver that never prints a newline must not grow the partial line without bound.
    if (this.partial.length > 64 * 1024) {
      parts.push(this.partial);
      this.partial = '';
    }
    for (const line of parts) this.lines.push(line.length > 4096 ? `${line.slice(0, 4096)}…` : line);
    if (this.lines.length > this.maxLines) this.lines.splice(0, this.lines.length - this.maxLines);
  }

  /** The last `count` lines, including an unterminated final line. */
  tail(count = 20): string[] {
    const all = this.partial === '' ? this.lines : [...this.lines, this.partial];
    return all.slice(Math.max(0, all.length - count));
  }

  private appendToFile(chunk: Buffer | string): void {
    if (this.file === undefined || this.fileFailed) return;
    try {
      appendFileSync(this.file, chunk);
    } catch {
      // The log is a convenience; losing it must not disturb the trial. Stop trying after the first failure.
      this.fileFailed = true;
    }
  }
}
