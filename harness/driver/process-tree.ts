// A driver's whole process tree: found by group, session, environment mark and parentage; killed at once; proven gone.
import { killGroup } from './process-group.js';
import { findHolders, harnessStart, isDeadState, pidNamespace, procAvailable, readCmdline, readProc, scanProcesses, type ProcEntry } from './proc-scan.js';
import type { ProcessEvidence } from './types.js';

/** A process the harness SIGKILLed, with its command line when it had left the group (read before it died). */
export type KilledProc = ProcEntry & { readonly cmdline: string | null };

/** What identifies one driver's processes: the group (and session) it leads and the mark in its environment. */
export interface TreeRoot {
  readonly pgid: number;
  readonly mark: string;
  /** The leader's start time (clock ticks since boot): a process started earlier cannot carry the mark. */
  readonly since?: number;
  /** The leader is the confinement wrapper (unshare, whose child is the namespace's init): neither is counted as the driver's. */
  readonly wrapped?: boolean;
}

/**
 * The live processes of `root` in a snapshot: its group and session, carriers of its mark, every process in the PID
 * namespace a confined driver runs in, and all their descendants.
 */
export function treeOf(root: TreeRoot, procs: readonly ProcEntry[]): ProcEntry[] {
  const inTree = new Set<number>();
  const children = new Map<number, number[]>();
  // The kernel frees a pid only once no process, group or session holds it, and pids wrap (32768 on many machines, a
  // few minutes of a busy suite): a live process with the leader's pid but not its start time means the driver's
  // group and session are gone, and whoever holds that number now is not the driver's. A process in the group cannot
  // have started before its leader either. Unknown start (0): the numbers alone, as before.
  const since = root.since ?? 0;
  const reused = since > 0 && procs.some((p) => p.pid === root.pgid && p.start !== since);
  const ours = (p: ProcEntry): boolean => !reused && (p.pid === root.pgid || p.pgrp === root.pgid || p.sid === root.pgid) && p.start >= since;
  for (const p of procs) {
    if (ours(p) || p.mark === root.mark) inTree.add(p.pid);
    const siblings = children.get(p.ppid);
    if (siblings === undefined) children.set(p.ppid, [p.pid]);
    else siblings.push(p.pid);
  }
  // A namespace cannot be left: whatever cleared its environment, left the session and double-forked is still in it.
  const own = harnessNamespace();
  const spaces = new Set(procs.filter((p) => inTree.has(p.pid) && p.pidns !== null && p.pidns !== own).map((p) => p.pidns));
  if (spaces.size > 0) for (const p of procs) if (spaces.has(p.pidns)) inTree.add(p.pid);
  // A child that cleared its environment and left the session is still found through its parent while that lives.
  const queue = [...inTree];
  while (queue.length > 0) {
    for (const child of children.get(queue.pop()!) ?? []) {
      if (!inTree.has(child)) {
        inTree.add(child);
        queue.push(child);
      }
    }
  }
  return procs.filter((p) => inTree.has(p.pid) && !isDeadState(p.state) && p.pid !== process.pid);
}

/**
 * Finds every live process of the roots and SIGKILLs them all together (groups first, then each pid),
 * rescanning until a pass finds nothing new so a process forked mid-kill is caught too. Synchronous.
 */
export function killTrees(roots: readonly TreeRoot[], spare: ReadonlySet<string> = new Set()): KilledProc[] {
  if (!procAvailable()) {
    for (const root of roots) killGroup(root.pgid);
    return [];
  }
  const groups = new Set(roots.map((r) => r.pgid));
  const killed = new Map<string, KilledProc>();
  for (let pass = 0; pass < 4; pass++) {
    const procs = scanProcesses({ marks: true, since: earliest(roots) });
    const fresh = roots.flatMap((r) => treeOf(r, procs)).filter((p) => !killed.has(key(p)) && !spare.has(key(p)));
    if (fresh.length === 0) break;
    // The evidence of an escape is read first: a dead process has no command line left.
    const found = fresh.map((p) => ({ ...p, cmdline: groups.has(p.pgrp) ? null : readCmdline(p.pid) }));
    for (const root of roots) killGroup(root.pgid);
    for (const p of found) {
      sigkill(p.pid);
      killed.set(key(p), p);
    }
    // A group kill is atomic even against a fork in flight; only a process outside the groups could fork unseen.
    if (found.every((p) => groups.has(p.pgrp))) break;
  }
  return [...killed.values()];
}

/** Waits until each process is dead (a zombie counts), re-sending SIGKILL; returns those still running at the deadline. */
export async function awaitGone(procs: readonly ProcEntry[], maxMs: number): Promise<ProcEntry[]> {
  const deadline = Date.now() + maxMs;
  let pause = 1;
  for (;;) {
    const live = stillRunning(procs);
    if (live.length === 0 || Date.now() >= deadline) return live;
    for (const p of live) sigkill(p.pid);
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 25);
  }
}

/** The synchronous awaitGone, for the exit hook and signal handlers where no event loop turn is left. */
export function awaitGoneSync(procs: readonly ProcEntry[], maxMs: number): ProcEntry[] {
  const deadline = Date.now() + maxMs;
  const cell = new Int32Array(new SharedArrayBuffer(4));
  let pause = 1;
  for (;;) {
    const live = stillRunning(procs);
    if (live.length === 0 || Date.now() >= deadline) return live;
    for (const p of live) sigkill(p.pid);
    Atomics.wait(cell, 0, 0, pause);
    pause = Math.min(pause * 2, 25);
  }
}

/** The evidence for one process: pid, session, group, command line and what it held. */
export function evidenceOf(p: ProcEntry & { cmdline?: string | null }, holds: readonly string[] = []): ProcessEvidence {
  return { pid: p.pid, session: p.sid, group: p.pgrp, cmdline: p.cmdline ?? readCmdline(p.pid), holds: [...holds] };
}

/**
 * After a kill: the processes of `root` still running, and every other process holding files under `dirs`,
 * except those of other live drivers (`others`) and, when the journal declared one, its external server.
 */
export function provenSurvivors(
  root: TreeRoot,
  dirs: readonly string[],
  options: { others: readonly TreeRoot[]; externalState: string | null },
): { tree: ProcEntry[]; holders: Array<{ proc: ProcEntry; holds: string[] }> } {
  if (!procAvailable()) return { tree: [], holders: [] };
  const since = earliest([root, ...options.others]);
  const procs = scanProcesses({ marks: true, since });
  const tree = treeOf(root, procs);
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  const excluded = new Set(options.others.flatMap((o) => treeOf(o, procs)).map((p) => p.pid));
  const mine = new Set(tree.map((p) => p.pid));
  // Only a process started since the harness can have been started by one of its drivers; the rest of the
  // machine is not read (this runs after every kill).
  const oldest = harnessStart();
  // A confined driver's processes all live in its PID namespace: one in the harness's own namespace and outside the
  // tree (another harness's scan reading this trial's files, say) was not started by it, and is neither blamed nor killed.
  const own = harnessNamespace();
  const outsider = (p: ProcEntry): boolean => root.wrapped === true && own !== null && (p.pidns ?? pidNamespace(p.pid)) === own && !mine.has(p.pid);
  const candidates = procs.filter((p) => p.start >= oldest && p.pid !== process.pid && !excluded.has(p.pid) && !isDeadState(p.state) && !outsider(p));
  const held = findHolders(dirs, candidates.map((p) => p.pid));
  const holders: Array<{ proc: ProcEntry; holds: string[] }> = [];
  for (const [pid, holds] of held) {
    const proc = byPid.get(pid) ?? readProc(pid);
    if (proc === null || isDeadState(proc.state)) continue;
    // A declared external server is not one of the driver's processes: it is named in the claim's boundary instead.
    if (options.externalState !== null && !mine.has(pid)) continue;
    holders.push({ proc, holds });
  }
  return { tree, holders };
}

/** A stable identity for a process: its pid with its start time, so a reused pid is never mistaken for it. */
export function key(p: ProcEntry): string {
  return `${p.pid}@${p.start}`;
}

function harnessNamespace(): number | null {
  ownNamespace ??= pidNamespace('self');
  return ownNamespace;
}
let ownNamespace: number | null | undefined;

function earliest(roots: readonly TreeRoot[]): number {
  return Math.min(...roots.map((r) => r.since ?? 0));
}

function stillRunning(procs: readonly ProcEntry[]): ProcEntry[] {
  return procs.filter((p) => {
    const now = readProc(p.pid);
    return now !== null && now.start === p.start && !isDeadState(now.state);
  });
}

function sigkill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // ESRCH: already gone. Anything else (EPERM) leaves it for the proof to report.
  }
}
