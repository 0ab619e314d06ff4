// Kills at the n-th durable syscall of one activity: strace attaches to the running driver's processes just before it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { liveGroupMembers } from '../driver/process-group.js';
import { newDriverMark, registerDriver, unregisterDriver } from '../driver/registry.js';
import { DURABLE_SYSCALLS } from '../engine/syscall-sweep.js';
import { EjcError } from '../errors.js';

/** A strace attached to a driver, armed to SIGKILL it at one syscall invocation counted from the attach. */
export interface AttachedKiller {
  readonly log: string;
  /** Detaches (the driver keeps running) unless the kill already ended it. */
  detach(): Promise<void>;
}

/** Attaches to every live process of the driver's group and resolves once strace reports each attached. */
export async function attachSyscallKiller(pgid: number, kill: { syscall: string; invocation: number }, log: string): Promise<AttachedKiller> {
  const pids = liveGroupMembers(pgid);
  const args = ['-f', '-o', log, '-e', `trace=${DURABLE_SYSCALLS.join(',')}`, '-e', `inject=${kill.syscall}:signal=KILL:when=${kill.invocation}`, ...pids.flatMap((p) => ['-p', String(p)])];
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
