// Kills at the n-th data write or sync of one activity: strace attaches to the running driver's processes just before it.
import { spawn } from 'node:child_process';
import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { liveGroupMembers } from '../driver/process-group.js';
import { newDriverMark, registerDriver, unregisterDriver } from '../driver/registry.js';
import { DURABLE_SYSCALLS } from '../engine/syscall-sweep.js';
import { EjcError } from '../../shared/errors.js';

/** A strace attached to a driver, armed to SIGKILL it at one syscall invocation counted from the attach. */
export interface AttachedKiller {
  readonly log: string;
  /** Detaches (the driver keeps running) unless the kill already ended it. */
  detach(): Promise<void>;
}

/**
 * What a generated syscall kill aims at, whatever calls the journal makes: a data write (positioned, or a plain write(2)
 * to one of its files) or a sync (fsync or fdatasync). strace counts each syscall of the set on its own, so the kill
 * lands at the n-th of whichever kind comes first: the n-th of the one kind a journal uses.
 */
export function killSet(syscall: 'pwrite64' | 'fdatasync'): readonly string[] {
  return syscall === 'pwrite64' ? ['pwrite64', 'pwritev', 'pwritev2', 'write', 'writev'] : ['fsync', 'fdatasync'];
}

/**
 * The paths strace counts calls on (-P): the journal directory, everything under it now, and the SQLite sidecars each
 * file may grow, so the protocol's pipe and the runtime's eventfds (plain write(2) too) never count.
 */
export function journalPaths(dir: string): string[] {
  const found = [dir];
  const walk = (d: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return; // not there yet, or removed meanwhile: nothing under it to count
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = join(d, e.name);
      if (e.isDirectory()) {
        found.push(path);
        walk(path);
      } else found.push(path);
    }
  };
  walk(dir);
  const sidecars = found.slice(1).flatMap((p) => (/-(wal|shm|journal)$/.test(p) ? [] : [`${p}-wal`, `${p}-shm`, `${p}-journal`]));
  return [...new Set([...found, ...sidecars])];
}

/** Attaches to every live process of the driver's group and resolves once strace reports each attached. */
export async function attachSyscallKiller(pgid: number, kill: { syscall: 'pwrite64' | 'fdatasync'; invocation: number }, log: string, journalDir: string): Promise<AttachedKiller> {
  const pids = liveGroupMembers(pgid);
  const set = killSet(kill.syscall).join(',');
  const paths = journalPaths(journalDir).flatMap((p) => ['-P', p]);
  const args = ['-f', '-o', log, '-e', `trace=${[...DURABLE_SYSCALLS, 'write', 'writev'].join(',')}`, ...paths, '-e', `inject=${set}:signal=KILL:when=${kill.invocation}`, ...pids.flatMap((p) => ['-p', String(p)])];
  const child = spawn('strace', args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  if (child.pid === undefined) throw new EjcError('internal', 'strace could not be started to attach to the driver');
  const pid = child.pid;
  // Registered like a driver (it leads its own group), so a harness that dies takes the tracer with it.
  registerDriver({ pgid: pid, mark: newDriverMark(), dirs: new Set(), externalState: null });
  const exited = once(child, 'exit').then(() => unregisterDriver(pid));
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new EjcError('internal', `strace did not attach to ${pids.join(', ')} within 10 s: ${stderr.trim()}`)), 10_000);
    const check = (): void => {
      // One "attached" line per thread; every process given with -p reports at least one.
      if ((stderr.match(/attached/g) ?? []).length >= pids.length) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      check();
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new EjcError('internal', `strace exited before attaching: ${stderr.trim()}`));
    });
  });
  return {
    log,
    async detach(): Promise<void> {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // SIGINT makes strace detach cleanly and leave the tracee running.
      child.kill('SIGINT');
      await exited;
    },
  };
}
