// Synchronous newline-delimited I/O on fds 0/1/2: lets a crash point block inside a journal call until resume.
import { readSync, writeSync } from 'node:fs';

const sleepCell = new Int32Array(new SharedArrayBuffer(4));

/** Reads and writes protocol lines without the event loop, so a synchronous hook can wait for the harness. */
export class SyncLineIo {
  private pending: Buffer = Buffer.alloc(0);
  private readonly chunk = Buffer.alloc(64 * 1024);
  private eof = false;

  /** The next line without its newline, or null once stdin reached EOF. Blocks until one arrives. */
  readLine(): string | null {
    for (;;) {
      const newline = this.pending.indexOf(0x0a);
      if (newline >= 0) {
        const line = this.pending.subarray(0, newline).toString('utf8');
        this.pending = this.pending.subarray(newline + 1);
        return line.endsWith('\r') ? line.slice(0, -1) : line;
      }
      if (this.eof) return null;
      const n = readRetrying(this.chunk);
      if (n === 0) {
        // A final line without its newline still counts; anything after EOF does not exist.
        this.eof = true;
        if (this.pending.length === 0) return null;
        const last = this.pending.toString('utf8');
        this.pending = Buffer.alloc(0);
        return last;
      }
      this.pending = Buffer.concat([this.pending, this.chunk.subarray(0, n)]);
    }
  }

  /** Writes one JSON message and its newline to stdout completely before returning. */
  writeMessage(message: unknown): void {
    writeAll(1, Buffer.from(`${JSON.stringify(message)}\n`, 'utf8'));
  }
}

/** One diagnostic line on stderr; never throws, because logging must not change the protocol's outcome. */
export function logLine(text: string): void {
  try {
    writeAll(2, Buffer.from(`${text}\n`, 'utf8'));
  } catch {
    // stderr is gone; there is nobody left to tell.
  }
}

function readRetrying(buffer: Buffer): number {
  for (;;) {
    try {
      return readSync(0, buffer, 0, buffer.length, null);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (code === 'EAGAIN' || code === 'EWOULDBLOCK') {
        pause();
        continue;
      }
      if (code === 'EOF') return 0;
      throw err;
    }
  }
}

function writeAll(fd: number, data: Buffer): void {
  let offset = 0;
  while (offset < data.length) {
    try {
      offset += writeSync(fd, data, offset, data.length - offset);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (code === 'EAGAIN' || code === 'EWOULDBLOCK') {
        pause();
        continue;
      }
      throw err;
    }
  }
}

function pause(): void {
  // A non-blocking fd has no data yet; sleep without spinning and without the event loop.
  Atomics.wait(sleepCell, 0, 0, 5);
}
