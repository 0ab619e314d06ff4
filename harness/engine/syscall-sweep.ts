// Kills at every durable write: strace records the write/fsync syscalls of one operation, then SIGKILLs a fresh driver at each.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Launch } from '../../reports/schema.js';
import { hostScriptPath } from '../driver/launch.js';
import { EjcError } from '../../shared/errors.js';

/** The syscalls that make bytes durable in a file: positioned writes and syncs (plain write() is also the pipe's, so it is left out). */
export const DURABLE_SYSCALLS = ['pwrite64', 'pwritev', 'pwritev2', 'fsync', 'fdatasync'] as const;

/**
 * The syscalls that change which bytes a name holds without writing any: a store of one file per row commits by rename,
 * link or unlink, and its crash windows lie between them (an unlink before a rename, the second of two unlinks).
 */
export const NAMESPACE_SYSCALLS = ['rename', 'renameat', 'renameat2', 'link', 'linkat', 'unlink', 'unlinkat', 'truncate', 'ftruncate'] as const;

export interface SyscallEvent {
  readonly syscall: string;
  /** 1-based invocation number of this syscall in its tracee, as strace's `when=` counts it. */
  readonly invocation: number;
}

/** Whether strace can trace here (installed and ptrace permitted); the answer is cached. */
export function straceAvailable(): boolean {
  if (cached === null) {
    try {
      execFileSync('strace', ['-qq', '-o', '/dev/null', '-e', 'trace=none', 'true'], { stdio: 'ignore', timeout: 10_000 });
      cached = true;
    } catch {
      cached = false;
    }
  }
  return cached;
}
let cached: boolean | null = null;

/** The same implementation started under strace: tracing durable syscalls to a log, or SIGKILLing it at one invocation. */
export function underStrace(launch: Launch, mode: { log: string; kill?: SyscallEvent; trace?: readonly string[]; decodeFds?: boolean; paths?: readonly string[] }): Launch {
  const trace = `trace=${(mode.trace ?? DURABLE_SYSCALLS).join(',')}`;
  // -y prints each fd with its path, so a trace can tell a file from the protocol pipe.
  const strace = ['strace', '-f', '-qq', ...(mode.decodeFds === true ? ['-y'] : []), '-e', trace, '-o', mode.log];
  // -P: only syscalls on these paths are traced, and so counted by inject's when= (the runtime's threads write eventfds).
  for (const path of mode.paths ?? []) strace.push('-P', path);
  if (mode.kill) strace.push('-e', `inject=${mode.kill.syscall}:signal=KILL:when=${mode.kill.invocation}`);
  // exec: strace leads the driver's process group and re-raises the tracee's SIGKILL as its own death.
  return { kind: 'command', command: ['exec', ...strace, '--', ...innerCommand(launch)].map(quote).join(' ') };
}

/** Whether the strace log shows a tracee killed by SIGKILL: the evidence when a wrapper (a shell, a version shim) outlives it. */
export function traceeKilled(path: string): boolean {
  return readFileSync(path, 'utf8').includes('+++ killed by SIGKILL +++');
}

/** Parses a strace log into per-tracee invocation-numbered events, in the order they happened. */
export function parseStraceLog(path: string): SyscallEvent[] {
  return parseStraceLines(readFileSync(path, 'utf8').split('\n'));
}

/** `parseStraceLog` of lines already read. */
export function parseStraceLines(lines: readonly string[]): SyscallEvent[] {
  const counters = new Map<string, number>();
  const events: SyscallEvent[] = [];
  for (const line of lines) {
    const m = /^(\d+)\s+([a-z0-9_]+)\(/.exec(line);
    if (!m) continue;
    const key = `${m[1]}:${m[2]}`;
    const invocation = (counters.get(key) ?? 0) + 1;
    counters.set(key, invocation);
    events.push({ syscall: m[2]!, invocation });
  }
  return events;
}

/** The events of `names` from line `from` of a trace on, each numbered by its invocation over the whole trace (as strace's `when=` counts). */
export function syscallsAfter(lines: readonly string[], from: number, names: readonly string[]): SyscallEvent[] {
  return parseStraceLines(lines).slice(parseStraceLines(lines.slice(0, from)).length).filter((e) => names.includes(e.syscall));
}

function innerCommand(launch: Launch): string[] {
  if (launch.kind === 'command') return ['/bin/sh', '-c', launch.command];
  const args = [process.execPath, hostScriptPath(), '--module', launch.module];
  for (const [k, v] of Object.entries(launch.options)) args.push('--option', `${k}=${v}`);
  if (!launch.module.startsWith('/')) throw new EjcError('internal', `underStrace needs an absolute module path, got ${launch.module}`);
  return args;
}

function quote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
