// Kill points at the writes a driver made to its journal's files, numbered as a victim traced with -P on those files counts them.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Launch } from '../../reports/schema.js';
import { DURABLE_SYSCALLS, underStrace, type SyscallEvent } from './syscall-sweep.js';

/** strace injects only into syscalls it traces: the victims of a file-write sweep trace these, plain write(2) included. */
export const KILLABLE_SYSCALLS: readonly string[] = [...DURABLE_SYSCALLS, 'write', 'writev'];

/** A syscall to kill at, with the journal files (relative to its directory, `.` for the directory itself) whose calls strace counts. */
export interface FileWritePoint extends SyscallEvent {
  readonly file: string;
  readonly files: readonly string[];
}

/**
 * The kill points of a window: every syscall of `syscalls` after line `from` of a `strace -f -y` log on a file under
 * `dir` (or the directory itself, fsynced), numbered per tracee among the calls on the files the window touched only:
 * plain write(2) is also the runtime's eventfd and the protocol's pipe, which the victim's -P leaves uncounted.
 * `only` narrows the files (names relative to `dir`) the points and their numbering consider.
 */
export function fileWritePoints(lines: readonly string[], from: number, dir: string, syscalls: readonly string[] = KILLABLE_SYSCALLS, only?: ReadonlySet<string>): FileWritePoint[] {
  const wanted = new Set(syscalls);
  const calls = lines.flatMap((line, i) => {
    const m = /^(\d+)\s+([a-z0-9_]+)\((?:\d+)<([^>]*)>/.exec(line);
    // A SQLite -shm is the WAL's index, rebuilt from the WAL by the next opener: no state a kill there could tear.
    if (!m || !wanted.has(m[2]!) || m[3]!.endsWith('-shm') || (m[3] !== dir && !m[3]!.startsWith(`${dir}/`))) return [];
    const file = relative(dir, m[3]!) || '.';
    return only === undefined || only.has(file) ? [{ line: i, tracee: m[1]!, syscall: m[2]!, file }] : [];
  });
  const files = [...new Set(calls.filter((c) => c.line >= from).map((c) => c.file))];
  const counters = new Map<string, number>();
  const window: FileWritePoint[] = [];
  for (const c of calls) {
    if (!files.includes(c.file)) continue;
    const key = `${c.tracee}:${c.syscall}`;
    const invocation = (counters.get(key) ?? 0) + 1;
    counters.set(key, invocation);
    if (c.line >= from) window.push({ syscall: c.syscall, invocation, file: c.file, files });
  }
  return window;
}

/**
 * The points two identical runs (logs `a` and `b`, windows from `fromA` and `fromB`, in `dirA` and `dirB`) both
 * reached: a file whose name differs between them (a random temporary name) cannot be aimed at with -P, so only the
 * files both wrote count, renumbered as a victim traced with -P on those alone counts them.
 */
export function stablePoints(
  a: { lines: readonly string[]; from: number; dir: string },
  b: { lines: readonly string[]; from: number; dir: string },
  syscalls: readonly string[] = KILLABLE_SYSCALLS,
): { stable: FileWritePoint[]; unstable: number } {
  const all = fileWritePoints(a.lines, a.from, a.dir, syscalls);
  const named = new Set(fileWritePoints(b.lines, b.from, b.dir, syscalls).map((p) => p.file));
  const shared = new Set(all.map((p) => p.file).filter((f) => named.has(f)));
  const key = (p: FileWritePoint): string => `${p.file}\u0000${p.syscall}#${p.invocation}`;
  const inB = new Set(fileWritePoints(b.lines, b.from, b.dir, syscalls, shared).map(key));
  const stable = fileWritePoints(a.lines, a.from, a.dir, syscalls, shared).filter((p) => inB.has(key(p)));
  return { stable, unstable: all.length - stable.length };
}

/** The victim's launch for a file-write point: under strace, counting only the calls on the point's files, SIGKILLed at it. */
export function fileWriteVictim(launch: Launch, point: FileWritePoint, dir: string, log: string, syscalls: readonly string[] = KILLABLE_SYSCALLS): Launch {
  return underStrace(launch, { log, kill: { syscall: point.syscall, invocation: point.invocation }, trace: syscalls, paths: point.files.map((f) => (f === '.' ? dir : join(dir, f))) });
}

/** A log's raw lines: the last, after the final newline, is the empty string (the next line strace writes starts there). */
export function rawLines(log: string): string[] {
  return readFileSync(log, 'utf8').split('\n');
}

/** The line index where the next syscall strace logs will land. */
export function nextLine(log: string): number {
  const sofar = rawLines(log);
  return sofar.at(-1) === '' ? sofar.length - 1 : sofar.length;
}
