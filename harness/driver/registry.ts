// Module-level registry of live drivers and temp dirs, so no process or directory outlives the harness.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { findHolders, harnessStart, pidNamespace, procAvailable, readProc, scanProcesses } from './proc-scan.js';
import { confinementChosen } from '../../shared/confinement.js';
import { awaitGoneSync, killTrees, type TreeRoot } from './process-tree.js';

/** A driver the harness started and has not yet seen end (its tree proven gone). */
export interface LiveDriver extends TreeRoot {
  /** Journal directories it opened: a process holding files there is one of its own. */
  readonly dirs: Set<string>;
  /** The server the journal declared its durable state lives in, or null. */
  externalState: string | null;
}

/** How long an exit or signal waits for killed processes to die before giving up on them. */
const EXIT_WAIT_MS = 10_000;
const SIGNAL_EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

const liveDrivers = new Map<number, LiveDriver>();
const tempDirs = new Set<string>();
let exitHookInstalled = false;
let signalCleanupInstalled = false;
let marks = 0;

/** A mark no other driver of any harness carries: this process's pid, a counter and random bytes. */
export function newDriverMark(): string {
  marks += 1;
  return `ejc-${process.pid}-${marks}-${randomBytes(6).toString('hex')}`;
}

/**
 * SIGKILLs every live driver's whole tree at once and waits (bounded) until all of it is dead, synchronously:
 * safe inside `process.on('exit')` and signal handlers. Processes holding files in registered temp dirs die too.
 */
export function killAllDrivers(): void {
  const roots = [...liveDrivers.values()];
  const external = roots.some((d) => d.externalState !== null);
  liveDrivers.clear();
  if (roots.length === 0 && tempDirs.size === 0) return;
  try {
    const killed = killTrees(roots);
    if (!external && procAvailable() && tempDirs.size > 0) {
      // A process that cleared its environment and left the tree is still ours if it holds our directories.
      const since = harnessStart();
      // Confined drivers cannot start a process in the harness's own PID namespace: one there is not ours (another
      // harness reading these directories) and must not be killed.
      const own = confinementChosen() === 'pid-namespace' ? pidNamespace('self') : null;
      const candidates = scanProcesses({ marks: false }).filter((p) => p.start >= since && p.pid !== process.pid && (own === null || pidNamespace(p.pid) !== own)).map((p) => p.pid);
      for (const pid of findHolders([...tempDirs], candidates).keys()) {
        const proc = readProc(pid);
        if (proc === null) continue;
        try {
          process.kill(pid, 'SIGKILL');
          killed.push({ ...proc, cmdline: null });
        } catch {
          // Already gone.
        }
      }
    }
    awaitGoneSync(killed, EXIT_WAIT_MS);
  } catch {
    // Best effort on the way out: nothing here may keep the harness from exiting.
  }
}

/** Makes SIGINT / SIGTERM / SIGHUP end every driver tree and remove registered temp dirs before exiting (130 / 143 / 129). */
export function installSignalCleanup(): void {
  if (signalCleanupInstalled) return;
  signalCleanupInstalled = true;
  installExitHook();
  const onSignal = (signal: NodeJS.Signals): void => {
    // Synchronous from here to exit: no other trial step runs, so nothing new can be started meanwhile.
    killAllDrivers();
    removeTempDirsSync();
    process.exit(SIGNAL_EXIT_CODES[signal] ?? 1);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
}

/** Records a driver as live until `unregisterDriver`. */
export function registerDriver(driver: LiveDriver): void {
  installExitHook();
  liveDrivers.set(driver.pgid, driver);
}

export function unregisterDriver(pgid: number): void {
  liveDrivers.delete(pgid);
}

/** Every live driver except the one leading `pgid`: their processes legitimately hold shared journal files. */
export function otherDrivers(pgid: number): TreeRoot[] {
  return [...liveDrivers.values()].filter((d) => d.pgid !== pgid);
}

/** Records a temp dir that signal cleanup must remove unless it was cleaned up (or kept) first. */
export function registerTempDir(path: string): void {
  installExitHook();
  tempDirs.add(path);
}

export function unregisterTempDir(path: string): void {
  tempDirs.delete(path);
}

/** The groups currently believed alive (for diagnostics and tests). */
export function liveDriverGroups(): number[] {
  return [...liveDrivers.keys()];
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  installDefaultSignalCleanup();
  // Detached drivers lead their own groups and sessions, so nothing else would kill them when the harness dies.
  process.on('exit', () => {
    killAllDrivers();
    removeTempDirsSync();
  });
}

/**
 * A signal nothing handles ends node without its 'exit' listeners: a library caller (vitest stops each of its fork
 * workers with SIGTERM, a trial may still be running in it) left its drivers and trial directories behind. Where the
 * process has no listener of its own for the signal, this one cleans up and re-raises it, so the process still ends
 * the way that signal ends it; a listener the caller adds later keeps the decision.
 */
function installDefaultSignalCleanup(): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    if (process.listenerCount(signal) > 0) continue;
    const onSignal = (): void => {
      process.removeListener(signal, onSignal);
      killAllDrivers();
      removeTempDirsSync();
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

function removeTempDirsSync(): void {
  for (const dir of tempDirs) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Best effort on the way out.
    }
  }
  tempDirs.clear();
}
