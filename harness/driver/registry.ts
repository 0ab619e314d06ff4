// Module-level registry of live driver groups and temp dirs, so no process or directory outlives the harness.
import { rmSync } from 'node:fs';
import { killGroup } from './process-group.js';

const liveGroups = new Set<number>();
const tempDirs = new Set<string>();
let exitHookInstalled = false;
let signalCleanupInstalled = false;

/** SIGKILLs every live driver group synchronously; safe inside `process.on('exit')` and signal handlers. */
export function killAllDrivers(): void {
  for (const pgid of liveGroups) {
    try {
      killGroup(pgid);
    } catch {
      // Best effort on the way out: one failing group must not spare the others.
    }
  }
  liveGroups.clear();
}

/** Makes Ctrl-C / SIGTERM kill every driver group and remove registered temp dirs before exiting (130 / 143). */
export function installSignalCleanup(): void {
  if (signalCleanupInstalled) return;
  signalCleanupInstalled = true;
  installExitHook();
  const onSignal = (signal: NodeJS.Signals): void => {
    killAllDrivers();
    removeTempDirsSync();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/** Records a driver's process group as live until `unregisterGroup`. */
export function registerGroup(pgid: number): void {
  installExitHook();
  liveGroups.add(pgid);
}

export function unregisterGroup(pgid: number): void {
  liveGroups.delete(pgid);
}

/** Records a temp dir that signal cleanup must remove unless it was cleaned up (or kept) first. */
export function registerTempDir(path: string): void {
  tempDirs.add(path);
}

export function unregisterTempDir(path: string): void {
  tempDirs.delete(path);
}

/** The groups currently believed alive (for diagnostics and tests). */
export function liveDriverGroups(): number[] {
  return [...liveGroups];
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Detached drivers lead their own groups, so nothing else would kill them when the harness dies.
  process.on('exit', killAllDrivers);
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
