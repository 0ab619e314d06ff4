// A driver's stderr: a bounded tail of lines in memory and, when asked, a log file capped at a size with a marker where it was cut.
import { closeSync, openSync, renameSync, writeSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** Largest stderr log kept per driver; a flood beyond it is counted and dropped. */
export const STDERR_LOG_LIMIT = 8 * 1024 * 1024;
const MAX_PARTIAL_CHARS = 64 * 1024;
const MAX_LINE_CHARS = 4096;

/** Keeps the last `maxLines` stderr lines in memory and, when a file is given, appends up to `fileLimit` bytes to it. */
export class StderrRing {
  private readonly decoder = new StringDecoder('utf8');
  private readonly lines: string[] = [];
  private partial = '';
  private fd: number | null = null;
  private fileFailed = false;
  private written = 0;
  private dropped = 0;
  private finished = false;

  constructor(
    private file: string | undefined,
    private readonly maxLines = 500,
    private readonly fileLimit = STDERR_LOG_LIMIT,
  ) {}

  push(chunk: Buffer | string): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    this.appendToFile(buf);
    const parts = this.decoder.write(buf).split('\n');
    // Only the new text is split; the unfinished line is joined once and capped, so a flood costs linear time.
    parts[0] = this.partial + parts[0]!;
    this.partial = parts.pop() ?? '';
    if (this.partial.length > MAX_PARTIAL_CHARS) {
      // A driver that never prints a newline must not grow the partial line without bound.
      parts.push(this.partial.slice(0, MAX_LINE_CHARS));
      this.partial = '';
    }
    const keep = parts.slice(Math.max(0, parts.length - this.maxLines));
    for (const line of keep) this.lines.push(line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line);
    if (this.lines.length > this.maxLines) this.lines.splice(0, this.lines.length - this.maxLines);
  }

  /** Moves the log to `file` (renamed when it was written already; the open descriptor follows it). */
  moveTo(file: string): void {
    if (this.file === undefined || file === this.file) return;
    if (this.fd !== null) {
      try {
        renameSync(this.file, file);
      } catch {
        // Losing the log's name is no reason to disturb the trial: it keeps its old one.
        return;
      }
    }
    this.file = file;
  }

  /** The last `count` lines, including an unterminated final line. */
  tail(count = 20): string[] {
    const all = this.partial === '' ? this.lines : [...this.lines, this.partial.slice(0, MAX_LINE_CHARS)];
    return all.slice(Math.max(0, all.length - count));
  }

  /** Bytes written to the log file and bytes dropped past its limit. */
  get logged(): { written: number; dropped: number } {
    return { written: this.written, dropped: this.dropped };
  }

  /** Closes the log; when it was cut, a final line says how many bytes were dropped. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.dropped > 0) this.write(Buffer.from(`[ejc] ${this.dropped} bytes of stderr were dropped after the cut\n`));
    if (this.fd !== null) {
      try {
        closeSync(this.fd);
      } catch {
        // Nothing more to lose.
      }
      this.fd = null;
    }
  }

  private appendToFile(buf: Buffer): void {
    if (this.file === undefined || this.fileFailed || this.finished) return;
    const room = this.fileLimit - this.written;
    const kept = buf.length <= room ? buf : buf.subarray(0, Math.max(0, room));
    if (kept.length > 0) this.write(kept);
    this.written += kept.length;
    if (kept.length === buf.length) return;
    if (this.dropped === 0) {
      this.write(Buffer.from(`\n[ejc] stderr log cut here: it reached its limit of ${this.fileLimit} bytes; the rest is dropped\n`));
    }
    this.dropped += buf.length - kept.length;
  }

  private write(bytes: Buffer): void {
    if (this.file === undefined || this.fileFailed) return;
    try {
      this.fd ??= openSync(this.file, 'a');
      writeSync(this.fd, bytes);
    } catch {
      // The log is a convenience; losing it must not disturb the trial. Stop trying after the first failure.
      this.fileFailed = true;
    }
  }
}
