// Evidence the journal does not control that a driver held at a crash point is blocked there: /proc's threads and its files.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { journalFiles } from '../world/byte-scan.js';
import { relative } from 'node:path';
import type { DriverHandle } from '../driver/types.js';

/** What waiting for a held driver to be blocked found (an assertion's `observed`: its times vary with the load). */
export interface HeldEvidence {
  /** Every thread of the driver's tree was asleep, with no CPU time added, over `quietMs`. */
  readonly proven: boolean;
  readonly quietMs: number;
  readonly waitedMs: number;
  readonly samples: number;
  /** Why it is not proven: a thread kept running, the tree changed, or the driver is gone. */
  readonly why: string | null;
}

export interface HeldWait {
  /** How long every thread must stay asleep with its CPU time unchanged. */
  readonly quietMs: number;
  /** When no such interval came by then (plus the time the driver's threads waited for a core), the wait ends unproven (a runtime with housekeeping threads, a polling loop). */
  readonly maxMs: number;
}

/** The longest gap between two samples that counts as watched time (the loop sleeps at most 10 ms between them). */
const SAMPLE_GAP_MS = 25;

/** The default wait: a journal that goes on within 40 ms of its announcement is caught whatever the machine's load. */
export const HELD_WAIT: HeldWait = { quietMs: 40, maxMs: 500 };

/**
 * Waits until `handle`'s whole process tree is proven blocked: every thread asleep (state S) at the start and the end of
 * `quietMs`, with the nanoseconds each ran (`/proc/<pid>/task/<tid>/schedstat`) unchanged, and the tree the same. Then
 * nothing of the driver ran over that interval, so whatever it wrote to stdout was written before it; one turn of the
 * event loop later (I/O is polled before immediates run) the harness has read it. A journal that sends a message after
 * its crash point without waiting for the resume is therefore seen doing so before the harness resumes it, on any load:
 * a runnable thread waiting for a core counts as running. Never a verdict on its own: a journal whose runtime keeps a
 * thread busy (a polling loop, a garbage collector) is waited for `maxMs` and then resumed as before, unproven; the time
 * its threads spent runnable but waiting for a core is added (at most nine times `maxMs`), and a thread seen with work
 * left must be seen asleep again (it ran) before the wait ends, short of ten times `maxMs`: a starved driver that has work
 * left gets to do it before the resume, and a look at its files sees what it did while held.
 */
export async function awaitBlocked(handle: DriverHandle, wait: HeldWait = HELD_WAIT): Promise<HeldEvidence> {
  const started = Date.now();
  let tree = handle.livePids();
  let base: { readonly at: number; readonly tasks: Map<string, number> } | null = null;
  let samples = 0;
  let why = 'no sample was taken';
  const queued = waitedForCore(tree);
  // Threads seen with work left (running, runnable, in a disk wait) and not seen asleep since: the wait does not end
  // unproven while one is left, short of the hard cap, or a journal starved of a core would be resumed before it did
  // what it was about to do (write a file while held, say) and the look would see nothing of it.
  const pending = new Set<string>();
  // The time the wait has watched the tree: the gap between two samples counts at most SAMPLE_GAP_MS, so a harness
  // that got no core for a second (a busy machine) has not watched the driver for that second, and does not resume it
  // unproven on the strength of two samples (a driver that writes every 10 ms once looked idle that way).
  let watched = 0;
  let last = started;
  for (;;) {
    if (tree.length === 0) return done(false, 'the driver is gone');
    const sample = sampleTasks(tree);
    samples += 1;
    const now = Date.now();
    watched += Math.min(now - last, SAMPLE_GAP_MS);
    last = now;
    for (const task of sample.runnable) pending.add(task);
    for (const task of sample.tasks.keys()) pending.delete(task);
    if (!sample.asleep) {
      why = sample.why ?? why;
      base = null;
      tree = handle.livePids();
    } else if (base === null || !sameRuntimes(base.tasks, sample.tasks)) {
      if (base !== null) why = 'a thread ran between two samples';
      base = { at: now, tasks: sample.tasks };
    } else if (now - base.at >= wait.quietMs) {
      // A process started meanwhile would have cost its parent CPU time; the scan confirms the tree is the one sampled.
      const again = handle.livePids();
      if (sameSet(again, tree)) return done(true, null);
      why = 'the process tree changed';
      tree = again;
      base = null;
    }
    // A starved driver is not a driver that never sleeps: the time its threads waited for a core extends the wait.
    // (schedstat is read again only once maxMs has passed: before that the wait goes on whatever it adds.)
    if (now - started >= wait.maxMs * 10) return done(false, why);
    if (watched >= wait.maxMs && watched >= wait.maxMs + Math.min(waitedForCore(tree) - queued, wait.maxMs * 9) && !workLeft(pending, sample)) return done(false, why);
    await new Promise((resolve) => setTimeout(resolve, Math.max(2, Math.min(10, wait.quietMs / 4))));
  }

  async function done(proven: boolean, reason: string | null): Promise<HeldEvidence> {
    await ioTurn();
    return { proven, quietMs: wait.quietMs, waitedMs: Date.now() - started, samples, why: reason };
  }
}

/**
 * A digest of every file under the journal's directory but SQLite's `-shm` (another driver's read writes there, and it
 * holds no rows). With `stat`, each digest also carries the file's inode, size and modification and change times, so a
 * rewrite shows whatever bytes it leaves: a journal that rewrites a file every 10 ms was read twice in the instant
 * between its truncation and its write (empty both times) and so seen unchanged, and one that rewrites the same bytes
 * would never show in its contents at all.
 */
export function journalFileDigests(dir: string, options: { readonly stat?: boolean } = {}): Map<string, string> {
  const out = new Map<string, string>();
  for (const path of journalFiles(dir, [])) {
    if (path.endsWith('-shm')) continue;
    try {
      const content = createHash('sha256').update(readFileSync(path)).digest('hex');
      out.set(relative(dir, path), options.stat === true ? `${content} ${statLine(path)}` : content);
    } catch {
      out.set(relative(dir, path), 'unreadable');
    }
  }
  return out;
}

/** What a write to the file moves: a new inode (replaced by a rename), its size, its modification and change times. */
function statLine(path: string): string {
  const s = statSync(path, { bigint: true });
  return `ino ${s.ino} size ${s.size} mtime ${s.mtimeNs} ctime ${s.ctimeNs}`;
}

/** The files whose digest differs between two readings (created, removed or changed), sorted. */
export function changedFiles(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((n) => before.get(n) !== after.get(n)).sort();
}

/** A thread seen with work left has not been seen asleep since, and is still there (a thread that ended left nothing). */
function workLeft(pending: ReadonlySet<string>, sample: TaskSample): boolean {
  if (pending.size === 0) return false;
  const live = new Set([...sample.runnable, ...sample.tasks.keys()]);
  for (const task of pending) if (live.has(task)) return true;
  return false;
}

/** One reading of the tree: the asleep threads' run times, the threads with work left, and why it is not all asleep. */
interface TaskSample {
  readonly asleep: boolean;
  readonly why: string | null;
  readonly tasks: Map<string, number>;
  readonly runnable: readonly string[];
}

// Every live thread is read (not only up to the first awake one): the wait needs to know which have work left.
function sampleTasks(pids: readonly number[]): TaskSample {
  const tasks = new Map<string, number>();
  const runnable: string[] = [];
  let why: string | null = null;
  for (const pid of pids) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      why ??= `process ${pid} ended`;
      continue;
    }
    for (const tid of tids) {
      const state = taskState(pid, tid);
      // A zombie thread (or leader) can run nothing more.
      if (state === 'Z' || state === 'X') continue;
      if (state !== 'S') {
        if (state !== null) runnable.push(`${pid}/${tid}`);
        why ??= state === null ? `a thread of ${pid} ended` : `a thread of ${pid} was in state ${state}`;
        continue;
      }
      const ran = runtime(pid, tid);
      if (ran === null) why ??= `a thread of ${pid} ended`;
      else tasks.set(`${pid}/${tid}`, ran);
    }
  }
  return { asleep: why === null, why, tasks, runnable };
}

function taskState(pid: number, tid: string): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'latin1');
    return stat.charAt(stat.lastIndexOf(')') + 2) || null;
  } catch {
    return null;
  }
}

/** Nanoseconds the thread has run (schedstat), or its user+system clock ticks where the kernel keeps no schedstat. */
function runtime(pid: number, tid: string): number | null {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'latin1').split(' ')[0]);
  } catch {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // stat(5) fields 14 and 15 (utime, stime) are the 12th and 13th after the state.
      return Number(fields[11]) + Number(fields[12]);
    } catch {
      return null;
    }
  }
}

/** Milliseconds the tree's threads have spent runnable but waiting for a core (schedstat's second field), summed. */
function waitedForCore(pids: readonly number[]): number {
  let ns = 0;
  for (const pid of pids) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'latin1').split(' ')[1]) || 0;
      } catch {
        // Gone, or no schedstat: nothing to add.
      }
    }
  }
  return ns / 1e6;
}

function sameRuntimes(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of a) if (b.get(key) !== value) return false;
  return true;
}

function sameSet(a: readonly number[], b: readonly number[]): boolean {
  const set = new Set(a);
  return a.length === b.length && b.every((x) => set.has(x));
}

// Two turns: each polls I/O (a read the driver's output is waiting for) before its immediates run.
async function ioTurn(): Promise<void> {
  for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
}
