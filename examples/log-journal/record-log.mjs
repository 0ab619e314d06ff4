// An append-only log of JSON records, one per line, fsynced after each append and read by tailing it.
// Result bytes that are no longer needed are overwritten in place: the log's secure delete.
import { closeSync, fstatSync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';

const NEWLINE = 0x0a;
// Every record that carries result bytes holds them in its last member, "r", as a JSON string.
const RESULT_MARK = Buffer.from(',"r":"');

export class RecordLog {
  constructor(path) {
    this.path = path;
    // O_APPEND for records (concurrent writers never interleave), a second descriptor for reads and in-place erasure:
    // Linux ignores pwrite's offset on an O_APPEND descriptor.
    this.appendFd = openSync(path, 'a');
    this.rwFd = openSync(path, 'r+');
    this.offset = 0;
  }

  /** Appends the records in one write, then fsyncs: they are durable when this returns. */
  append(records) {
    const size = fstatSync(this.rwFd).size;
    // A writer killed mid-line leaves a torn tail; a fresh line keeps our records whole (the fragment is skipped).
    const torn = size > 0 && lastByte(this.rwFd, size) !== NEWLINE;
    writeSync(this.appendFd, (torn ? '\n' : '') + records.map((r) => `${serialize(r)}\n`).join(''));
    fsyncSync(this.appendFd);
  }

  /** The complete records appended since the last call (ours and other processes'), with their result spans. */
  tail() {
    const size = fstatSync(this.rwFd).size;
    if (size <= this.offset) return [];
    const buf = Buffer.alloc(size - this.offset);
    const got = readSync(this.rwFd, buf, 0, buf.length, this.offset);
    const out = [];
    let start = 0;
    for (let nl = buf.indexOf(NEWLINE); nl >= 0 && nl < got; nl = buf.indexOf(NEWLINE, start)) {
      const parsed = parse(buf.subarray(start, nl), this.offset + start);
      if (parsed) out.push(parsed);
      start = nl + 1;
    }
    // An unterminated last line is still being written, or torn: it is not a record (yet).
    this.offset += start;
    return out;
  }

  /** Overwrites result bytes in place with '0' (the JSON string stays valid), then fsyncs. */
  erase(spans) {
    for (const span of spans) writeSync(this.rwFd, Buffer.alloc(span.length, 0x30), 0, span.length, span.offset);
    if (spans.length > 0) fsyncSync(this.rwFd);
  }

  close() {
    closeSync(this.appendFd);
    closeSync(this.rwFd);
  }
}

function serialize(record) {
  const { r, ...rest } = record;
  const head = JSON.stringify(rest);
  return r === undefined ? head : `${head.slice(0, -1)},"r":${JSON.stringify(r)}}`;
}

// A torn fragment is no record; a line whose result bytes a concurrent eraser is overwriting still is one.
function parse(line, offset) {
  if (line.length === 0) return null;
  const mark = line.lastIndexOf(RESULT_MARK);
  const end = line.length - 2;
  const span = mark >= 0 && line[end] === 0x22 && line[end + 1] === 0x7d ? { offset: offset + mark + RESULT_MARK.length, length: end - mark - RESULT_MARK.length } : null;
  for (const text of [line.toString('utf8'), span && `${line.subarray(0, mark + RESULT_MARK.length)}${'0'.repeat(span.length)}"}`]) {
    if (!text) continue;
    try {
      const record = JSON.parse(text);
      if (record !== null && typeof record === 'object' && typeof record.t === 'string') return { record, span };
    } catch {
      // try the erased reading, then give up on the line
    }
  }
  return null;
}

function lastByte(fd, size) {
  const b = Buffer.alloc(1);
  readSync(fd, b, 0, 1, size - 1);
  return b[0];
}
