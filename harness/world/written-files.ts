// Reads an `strace -f -y` log for what a driver wrote: the files it opened for writing or created, and its write syscalls by target.
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { DURABLE_SYSCALLS } from '../engine/syscall-sweep.js';

/** Syscalls that open, create or name a file a process can then hold bytes in. */
export const FILE_SYSCALLS = ['open', 'openat', 'openat2', 'open_by_handle_at', 'creat', 'rename', 'renameat', 'renameat2', 'link', 'linkat', 'truncate'] as const;

/** Every syscall through which bytes can leave a process for storage: the durable ones plus plain writes, mappings and sockets. */
export const WRITE_SYSCALLS = [...DURABLE_SYSCALLS, 'write', 'writev', 'msync', 'sync_file_range', 'syncfs', 'sync', 'io_uring_enter', 'sendto', 'sendmsg', 'sendmmsg'] as const;

/** One completed syscall of a traced process (an `<unfinished ...>` line joined with its `resumed` half). */
export interface TraceLine {
  readonly pid: number;
  readonly syscall: string;
  /** `name(args) = result`, as strace printed it. */
  readonly text: string;
}

/** The completed syscalls of a log, in the order they finished. */
export function readTraceLines(path: string): TraceLine[] {
  return traceLines(readFileSync(path, 'utf8').split('\n'));
}

/** `readTraceLines` of a log's raw lines already read. */
export function traceLines(rawLines: readonly string[]): TraceLine[] {
  const open = new Map<number, string>();
  const lines: TraceLine[] = [];
  for (const raw of rawLines) {
    const m = /^(\d+)\s+(.*)$/.exec(raw);
    if (!m) continue;
    const pid = Number(m[1]);
    let text = m[2]!;
    if (text.endsWith('<unfinished ...>')) {
      open.set(pid, text.slice(0, -'<unfinished ...>'.length).trimEnd());
      continue;
    }
    const resumed = /^<\.\.\. [a-z0-9_]+ resumed>(.*)$/.exec(text);
    if (resumed) {
      text = `${open.get(pid) ?? ''}${resumed[1]}`;
      open.delete(pid);
    }
    const name = /^([a-z0-9_]+)\(/.exec(text);
    if (name) lines.push({ pid, syscall: name[1]!, text });
  }
  return lines;
}

/**
 * Absolute paths of every file the trace shows opened for writing, created, renamed or linked into place, first seen
 * first. A rename carries what was written under its source along: a directory of written files renamed (at a close, say)
 * leaves them under the new name, and both names of a RENAME_EXCHANGE hold what the other held.
 */
export function writtenPaths(lines: readonly TraceLine[], cwd: string): string[] {
  const seen: string[] = [];
  const add = (path: string | null): void => {
    if (path !== null && !seen.includes(path)) seen.push(path);
  };
  // Every path seen at or under `from` is also seen at the same place under `to`.
  const carry = (from: string, to: string): void => {
    for (const path of [...seen]) if (path === from || path.startsWith(`${from}/`)) add(`${to}${path.slice(from.length)}`);
  };
  for (const line of lines) {
    if (!/\)\s+=\s+\d+/.test(line.text)) continue; // failed calls wrote nothing
    if (line.syscall === 'creat' || ((line.syscall === 'open' || line.syscall.startsWith('openat') || line.syscall === 'open_by_handle_at') && WRITE_FLAGS.test(line.text))) {
      add(returnedPath(line.text) ?? absolute(quoted(line.text)[0] ?? null, cwd));
    } else if (line.syscall.startsWith('rename') || line.syscall.startsWith('link')) {
      const names = quoted(line.text);
      const dirs = [...line.text.matchAll(/(?:AT_FDCWD|\d+)<([^>]*)>/g)].map((d) => d[1]!);
      // The destination is the last path; with a dirfd form its directory is the last decoded fd, the source's the first.
      const dirfds = line.syscall.endsWith('at') || line.syscall === 'renameat2';
      const to = absolute(names.at(-1) ?? null, dirfds ? (dirs.at(-1) ?? cwd) : cwd);
      const from = names.length >= 2 ? absolute(names[0]!, dirfds ? (dirs[0] ?? cwd) : cwd) : null;
      add(to);
      if (line.syscall.startsWith('rename') && from !== null && to !== null) {
        const exchange = line.text.includes('RENAME_EXCHANGE');
        const before = exchange ? seen.filter((p) => p === to || p.startsWith(`${to}/`)) : [];
        carry(from, to);
        if (exchange) {
          add(from);
          for (const path of before) add(`${from}${path.slice(to.length)}`);
        }
      }
    } else if (line.syscall === 'truncate') {
      add(absolute(quoted(line.text)[0] ?? null, cwd));
    }
  }
  return seen;
}

/** What the write syscalls of `lines` went to: durable file syscalls, plain writes to files, anything else that could store bytes, and the protocol pipe. */
export function writeTargets(lines: readonly TraceLine[]): { durable: number; plainFileWrites: number; elsewhere: number; protocol: number } {
  const counts = { durable: 0, plainFileWrites: 0, elsewhere: 0, protocol: 0 };
  for (const line of lines) {
    if ((DURABLE_SYSCALLS as readonly string[]).includes(line.syscall)) counts.durable += 1;
    else if (!(WRITE_SYSCALLS as readonly string[]).includes(line.syscall)) continue;
    else if (line.syscall === 'write' || line.syscall === 'writev') {
      // fd 1 and 2 are the driver's stdout (the protocol) and stderr (its log), both pipes to the harness.
      const fd = /^[a-z]+\((\d+)<([^>]*)>/.exec(line.text);
      const [num, target] = [Number(fd?.[1] ?? -1), fd?.[2] ?? ''];
      if (num === 1 || num === 2) counts.protocol += 1;
      // Event fds are the runtime waking its own threads; nothing is stored there.
      else if (target.startsWith('anon_inode:')) continue;
      else if (target.startsWith('/') && !target.startsWith('/dev/')) counts.plainFileWrites += 1;
      else counts.elsewhere += 1;
    } else counts.elsewhere += 1;
  }
  return counts;
}

const WRITE_FLAGS = /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND/;

// The path strace decoded for a returned fd (`= 5</abs/path>`), the most reliable form of an opened file.
function returnedPath(text: string): string | null {
  const m = /\)\s+=\s+\d+<([^>]*)>\s*$/.exec(text);
  return m ? unescape(m[1]!) : null;
}

function quoted(text: string): string[] {
  return [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => unescape(m[1]!));
}

function absolute(path: string | null, base: string): string | null {
  if (path === null || path === '') return null;
  return isAbsolute(path) ? resolve(path) : resolve(base, path);
}

// strace escapes quotes, backslashes and unprintable bytes (\n, \t, \ooo, \xhh).
function unescape(text: string): string {
  return text.replace(/\\(x[0-9a-fA-F]{2}|[0-7]{1,3}|.)/g, (_, e: string) => {
    if (e.startsWith('x')) return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]+$/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return ({ n: '\n', t: '\t', r: '\r', v: '\v', f: '\f' } as Record<string, string>)[e] ?? e;
  });
}
