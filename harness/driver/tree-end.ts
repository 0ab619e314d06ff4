// Ending a driver's tree once its leader is reaped: kill what is left, wait until it is dead, prove nothing of it runs or holds its files.
import { realpathSync } from 'node:fs';
import { awaitGone, evidenceOf, killTrees, provenSurvivors, type KilledProc } from './process-tree.js';
import { otherDrivers, type LiveDriver } from './registry.js';
import type { ProcessEvidence, TreeEvidence } from './types.js';

export type TreeEnd = TreeEvidence;

/** How long killed processes may take to die (a process in uninterruptible I/O finishes it first) before they count as survivors. */
export const KILL_WAIT_MS = 10_000;
const STREAM_WAIT_MS = 1000;

/**
 * `killedAtOnce` is what the harness's own kill found and SIGKILLed together; null when the leader exited by
 * itself, and then what it left behind is killed here. A crash (the harness's kill, or any death by SIGKILL such
 * as strace's injected one) is then proven: nothing of the tree runs and nothing else holds the journal's files.
 * Whatever fails that is a survivor: named, then killed so it does not outlive the trial.
 */
export async function endTree(driver: LiveDriver, killedAtOnce: KilledProc[] | null, streamsClosed: Promise<unknown>, crashed: boolean): Promise<TreeEnd> {
  const ended = killedAtOnce ?? killTrees([driver]);
  // A response written just before a natural exit may still sit in the pipe; with every writer dead, the pipes close.
  await within(streamsClosed, STREAM_WAIT_MS);
  const survivors = new Map<number, ProcessEvidence>();
  for (const p of await awaitGone(ended, KILL_WAIT_MS)) survivors.set(p.pid, evidenceOf(p));
  if (crashed) {
    const proof = provenSurvivors(driver, [...driver.dirs].map(real), { others: otherDrivers(driver.pgid), externalState: driver.externalState });
    const holdsOf = new Map(proof.holders.map((h) => [h.proc.pid, h.holds]));
    for (const p of proof.tree) if (!survivors.has(p.pid)) survivors.set(p.pid, evidenceOf(p, holdsOf.get(p.pid) ?? []));
    for (const h of proof.holders) if (!survivors.has(h.proc.pid)) survivors.set(h.proc.pid, evidenceOf(h.proc, h.holds));
    if (survivors.size > 0) await cleanUp([...proof.tree, ...proof.holders.map((h) => h.proc)]);
  }
  return {
    // unshare and the namespace's init shell are the harness's, not the driver's: they are not counted.
    processes: ended.filter((p) => !(driver.wrapped === true && (p.pid === driver.pgid || p.ppid === driver.pgid))).length,
    escaped: ended.filter((p) => p.pgrp !== driver.pgid).map((p) => evidenceOf(p)),
    survivors: [...survivors.values()].sort((a, b) => a.pid - b.pid),
  };
}

// The evidence is taken; now nothing of it may outlive the trial either.
async function cleanUp(procs: ReadonlyArray<Parameters<typeof awaitGone>[0][number]>): Promise<void> {
  for (const p of procs) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await awaitGone(procs, KILL_WAIT_MS);
}

function real(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
