// Reading the process table from /proc: every process's group, session, parent and driver mark, and who holds files under a directory.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, readlinkSync, readSync } from 'node:fs';

/**
 * The environment variable that tags every process a driver starts, whatever group or session it moves to. Its name is
 * ten random capitals drawn once per harness process (and its value random hex, registry.ts): a fixed or ejc-named
 * variable would tell a journal it runs under the harness. What remains is one variable no login shell sets.
 */
export const MARK_VAR = Array.from(randomBytes(10), (b) => String.fromCharCode(65 + (b % 26))).join('');

export interface ProcEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly pgrp: number;
  readonly sid: number;
  /** Scheduler state (`R`, `S`, `D`, `Z`, ...). */
  readonly state: string;
  /** Start time in clock ticks since boot: tells a process from a later one that reuses its pid. */
  readonly start: number;
  /** The value of MARK_VAR in the environment it was started with, or null. */
  readonly mark: string | null;
  /** Its PID namespace (the inode of /proc/<pid>/ns/pid), read with the mark; null when not read. No process can leave it. */
  readonly pidns: number | null;
}

const MARK_PREFIX = Buffer.from(`${MARK_VAR}=`);

/** Whether the process table can be read here (Linux with /proc); elsewhere only process groups are used. */
export function procAvailable(): boolean {
  if (available === null) {
    try {
      available = process.platform === 'linux' && readStat(process.pid) !== null;
    } catch {
      available = false;
    }
  }
  return available;
}
let available: boolean | null = null;

/**
 * One pass over /proc: every process with its stat fields and, when `marks` is set, its driver mark, read only
 * for processes started at or after `since` (clock ticks since boot): an older one cannot carry a newer mark.
 */
export function scanProcesses(options: { marks: boolean; since?: number } = { marks: true }): ProcEntry[] {
  const entries: ProcEntry[] = [];
  const since = options.since ?? 0;
  const listed = pids();
  forgetUnlisted(listed);
  for (const pid of listed) {
    const stat = readStat(pid);
    if (stat === null) continue;
    // A zombie's environment is gone and it can do nothing more: no need to read it.
    const read = options.marks && stat.start >= since && !isDeadState(stat.state);
    entries.push({ ...stat, mark: read ? readMark(pid) : null, pidns: read ? pidNamespace(pid) : null });
  }
  return entries;
}

/** The current entry of one pid, or null when it no longer exists. */
export function readProc(pid: number): ProcEntry | null {
  const stat = readStat(pid);
  return stat === null ? null : { ...stat, mark: null, pidns: null };
}

/** The PID namespace a process lives in (the inode `/proc/<pid>/ns/pid` names), or null when it cannot be read. */
export function pidNamespace(pid: number | 'self'): number | null {
  const target = link(`/proc/${pid}/ns/pid`);
  const inode = target === null ? null : /^pid:\[(\d+)\]$/.exec(target)?.[1];
  return inode === undefined || inode === null ? null : Number(inode);
}

/** Dead for every purpose of the harness: gone, or a zombie that only waits to be reaped. */
export function isDeadState(state: string | null | undefined): boolean {
  return state === null || state === undefined || state === 'Z' || state === 'X' || state === 'x';
}

/** The command line, arguments separated by spaces, shortened for evidence (empty for a zombie). */
export function readCmdline(pid: number, maxChars = 240): string {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').replace(/\0/g, ' ');
  } catch {
    return '';
  }
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}

/** When this process (the harness) started: nothing older can have been started by one of its drivers. */
export function harnessStart(): number {
  ownStart ??= readStat(process.pid)?.start ?? 0;
  return ownStart;
}
let ownStart: number | undefined;

/**
 * Which of `candidates` hold something under one of `dirs`: an open file descriptor, the working
 * directory, or a mapped file. Returns pid → the absolute paths it holds.
 */
export function findHolders(dirs: readonly string[], candidates: readonly number[]): Map<number, string[]> {
  const held = new Map<number, string[]>();
  if (dirs.length === 0) return held;
  const needles = dirs.map((d) => Buffer.from(d));
  const under = (path: string): boolean => dirs.some((d) => path === d || path.startsWith(`${d}/`));
  for (const pid of candidates) {
    const paths = new Set<string>();
    const cwd = link(`/proc/${pid}/cwd`);
    if (cwd !== null && under(cwd)) paths.add(cwd);
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      // Gone, or a kernel thread: nothing held.
    }
    for (const fd of fds) {
      const target = link(`/proc/${pid}/fd/${fd}`);
      if (target !== null && under(target.replace(/ \(deleted\)$/, ''))) paths.add(target);
    }
    // A mapped file stays held after its descriptor is closed (SQLite maps its -shm file).
    if (paths.size === 0) for (const path of mappedUnder(pid, needles)) if (under(path.replace(/ \(deleted\)$/, ''))) paths.add(path);
    if (paths.size > 0) held.set(pid, [...paths].sort());
  }
  return held;
}

function mappedUnder(pid: number, needles: readonly Buffer[]): string[] {
  const maps = readShared(`/proc/${pid}/maps`);
  if (maps === null) return [];
  // Most processes map nothing of ours: search the raw bytes before decoding anything.
  if (!needles.some((n) => maps.includes(n))) return [];
  const found: string[] = [];
  for (const line of maps.toString('utf8').split('\n')) {
    const slash = line.indexOf('/');
    if (slash !== -1) found.push(line.slice(slash));
  }
  return found;
}

function pids(): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const name of names) {
    const c = name.charCodeAt(0);
    if (c >= 48 && c <= 57) out.push(Number(name));
  }
  return out;
}

function readStat(pid: number): Omit<ProcEntry, 'mark' | 'pidns'> | null {
  const bytes = statBytes(pid);
  if (bytes === null) return null;
  // The command name may contain spaces and parentheses; the fields after the last ')' are fixed. They are read from
  // the bytes in place: this runs for every process on the machine, several times per trial.
  const close = bytes.lastIndexOf(0x29);
  if (close === -1 || close + 3 >= bytes.length) return null;
  const state = String.fromCharCode(bytes[close + 2]!);
  // Fields after the state (stat(5) numbering): 4 ppid, 5 pgrp, 6 session, 22 starttime.
  let field = 4;
  let at = close + 4;
  let ppid = Number.NaN;
  let pgrp = Number.NaN;
  let sid = Number.NaN;
  let start = Number.NaN;
  while (field <= 22 && at < bytes.length) {
    let value = 0;
    let digits = 0;
    let negative = false;
    if (bytes[at] === 0x2d) {
      negative = true;
      at += 1;
    }
    for (; at < bytes.length; at++) {
      const c = bytes[at]!;
      if (c < 0x30 || c > 0x39) break;
      value = value * 10 + (c - 0x30);
      digits += 1;
    }
    const n = digits === 0 ? Number.NaN : negative ? -value : value;
    if (field === 4) ppid = n;
    else if (field === 5) pgrp = n;
    else if (field === 6) sid = n;
    else if (field === 22) start = n;
    // Every field is one number followed by one space (or the final newline).
    if (bytes[at] !== 0x20 && field < 22) return null;
    at += 1;
    field += 1;
  }
  if (![ppid, pgrp, sid, start].every((n) => Number.isFinite(n))) return null;
  return { pid, ppid, pgrp, sid, state, start };
}

function readMark(pid: number): string | null {
  const env = readShared(`/proc/${pid}/environ`);
  if (env === null) return null;
  let at = env.indexOf(MARK_PREFIX);
  // Only a whole entry counts: the prefix must start the environment or follow a NUL.
  while (at > 0 && env[at - 1] !== 0) at = env.indexOf(MARK_PREFIX, at + 1);
  if (at === -1) return null;
  const from = at + MARK_PREFIX.length;
  const end = env.indexOf(0, from);
  return env.toString('utf8', from, end === -1 ? env.length : end);
}

// One buffer reused for every /proc read: this runs after every kill, over every process on the machine.
let shared = Buffer.alloc(64 * 1024);

/** The whole file in the shared buffer (valid until the next call), or null when it cannot be read. */
function readShared(path: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    let length = 0;
    for (;;) {
      if (length === shared.length) {
        const bigger = Buffer.alloc(shared.length * 2);
        shared.copy(bigger);
        shared = bigger;
      }
      const n = readSync(fd, shared, length, shared.length - length, null);
      length += n;
      if (n === 0) return shared.subarray(0, length);
    }
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * Open `/proc/<pid>/stat` descriptors, read again in place (a read at offset 0 makes the kernel format the record
 * afresh) by every scan: one system call per process instead of an open, a read and a close, for every process on the
 * machine several times per trial. A descriptor stays bound to the process it was opened for, never to its pid: once
 * that process has been reaped a read fails (ESRCH), even when the pid has been reused meanwhile, and the pid is
 * opened afresh, so a reused pid is read as the new process it is.
 */
const statFds = new Map<number, number>();
/** Beyond this many processes the rest are read the plain way, so the harness never runs short of descriptors. */
const MAX_STAT_FDS = 2048;

function statBytes(pid: number): Buffer | null {
  const held = statFds.get(pid);
  if (held !== undefined) {
    const bytes = readRecord(held);
    if (bytes !== null) return bytes;
    statFds.delete(pid);
    closeQuietly(held);
  }
  let fd: number;
  try {
    fd = openSync(`/proc/${pid}/stat`, 'r');
  } catch {
    return null;
  }
  const bytes = readRecord(fd);
  if (bytes !== null && statFds.size < MAX_STAT_FDS) statFds.set(pid, fd);
  else closeQuietly(fd);
  return bytes;
}

/**
 * The stat record a descriptor reads now, in the shared buffer; null once its process is gone. The kernel formats the
 * record whole and hands it out in one read when the buffer is larger, so a read that leaves room is all of it.
 */
function readRecord(fd: number): Buffer | null {
  try {
    const n = readSync(fd, shared, 0, shared.length, 0);
    // A stat record is a few hundred bytes; one that fills the buffer is not one (and is not trusted).
    return n > 0 && n < shared.length ? shared.subarray(0, n) : null;
  } catch {
    return null;
  }
}

/** Closes the descriptors of processes no longer listed in /proc: they are gone for good. */
function forgetUnlisted(listed: readonly number[]): void {
  if (statFds.size === 0) return;
  const live = new Set(listed);
  for (const [pid, fd] of statFds) {
    if (live.has(pid)) continue;
    statFds.delete(pid);
    closeQuietly(fd);
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed: nothing held.
  }
}

function link(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}
