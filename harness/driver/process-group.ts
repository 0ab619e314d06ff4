// Process-group primitives: SIGKILL a whole group and find out whether anything in it still runs.
import { readdirSync, readFileSync } from 'node:fs';

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
  if (process.platform !== 'linux') return groupExists(pgid) ? [pgid] : [];
  const live: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return groupExists(pgid) ? [pgid] : [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat !== null && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') live.push(Number(entry));
  }
  return live;
}

/** Waits (bounded) until no process of the group is running; returns the pids still running at the deadline. */
export async function waitGroupGone(pgid: number, maxMs: number): Promise<number[]> {
  const deadline = Date.now() + maxMs;
  for (;;) {
    const live = liveGroupMembers(pgid);
    if (live.length === 0 || Date.now() >= deadline) return live;
    // A member may have been forked after the first SIGKILL was delivered; repeat it.
    killGroup(pgid);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The scheduler state of one process (`R`, `S`, `Z`, ...) or null when it no longer exists. */
export function processState(pid: number): string | null {
  return readStat(pid)?.state ?? null;
}

function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function readStat(pid: number): { state: string; pgrp: number } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name may contain spaces and parentheses; the fields after the last ')' are fixed.
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = rest[0];
  const pgrp = Number(rest[2]);
  return state === undefined || !Number.isFinite(pgrp) ? null : { state, pgrp };
}

function isErrno(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}
