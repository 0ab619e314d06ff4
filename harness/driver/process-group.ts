// Process-group primitives: SIGKILL a whole group and find out whether anything in it still runs.
import { isDeadState, procAvailable, readProc, scanProcesses } from './proc-scan.js';

/** Sends SIGKILL to every process in the group led by `pgid`; true when the group still existed. */
export function killGroup(pgid: number): boolean {
  try {
    process.kill(-pgid, 'SIGKILL');
    return true;
  } catch (err) {
    // ESRCH: nothing left in the group. EPERM cannot happen for our own children; either way nothing to do.
    if (isErrno(err, 'ESRCH') || isErrno(err, 'EPERM')) return false;
    throw err;
  }
}

/** Pids in the group that are still running. A zombie is dead (it only waits to be reaped by init), so it is not counted. */
export function liveGroupMembers(pgid: number): number[] {
  if (!procAvailable()) return groupExists(pgid) ? [pgid] : [];
  return scanProcesses({ marks: false })
    .filter((p) => p.pgrp === pgid && !isDeadState(p.state))
    .map((p) => p.pid);
}

/** The scheduler state of one process (`R`, `S`, `Z`, ...) or null when it no longer exists. */
export function processState(pid: number): string | null {
  return readProc(pid)?.state ?? null;
}

function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function isErrno(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}
