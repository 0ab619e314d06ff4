// Which harness process a trial directory belongs to: a marker in it, so a world scan can tell another harness's trials from its own.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { harnessStart, isDeadState, readProc } from '../driver/proc-scan.js';

/** The marker's name, at the top of every trial directory. */
export const OWNER_FILE = '.ejc-trial-owner';

/** Marks `dir` as a trial directory of this harness process (pid and start time, so a reused pid never matches). */
export function markTrialOwner(dir: string): void {
  try {
    writeFileSync(join(dir, OWNER_FILE), `${process.pid} ${harnessStart()}\n`);
  } catch {
    // Without the marker a concurrent harness only reads this trial's files too: never less evidence, just more.
  }
}

/**
 * Whether `dir` is a trial directory of another harness process that is running now. Two harnesses running the
 * same seed plant the same canaries, so one's journals (a broken one's leak) must not count against the other's;
 * its own scans judge them. A marker naming this process, or a process it started (a driver forging one), or a
 * process that is gone, or a pid whose start time differs, is not another harness: the directory is read as usual.
 */
export function ownedByAnotherHarness(dir: string): boolean {
  let text: string;
  try {
    text = readFileSync(join(dir, OWNER_FILE), 'utf8');
  } catch {
    return false;
  }
  const m = /^(\d+) (\d+)\n$/.exec(text);
  if (m === null) return false;
  const pid = Number(m[1]);
  const proc = readProc(pid);
  if (proc === null || isDeadState(proc.state) || proc.start !== Number(m[2]) || pid === process.pid) return false;
  return !descendsFromThisProcess(pid);
}

function descendsFromThisProcess(pid: number): boolean {
  let current: number = pid;
  for (let hops = 0; hops < 64 && current > 1; hops++) {
    if (current === process.pid) return true;
    const proc = readProc(current);
    if (proc === null) return false;
    current = proc.ppid;
  }
  return false;
}
