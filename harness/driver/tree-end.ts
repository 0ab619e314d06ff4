// Ending a driver's tree once its leader is reaped: kill what is left, wait until it is dead, prove nothing of it runs or holds its files.
import { realpathSync } from 'node:fs';
import { awaitGone, evidenceOf, key, killTrees, provenSurvivors, type KilledProc } from './process-tree.js';
import { otherDrivers, type LiveDriver } from './registry.js';
import type { ProcessEvidence, TreeEvidence } from './types.js';

export type TreeEnd = TreeEvidence;

/** How long killed processes may take to die (a process in uninterruptible I/O finishes it first) before they count as survivors. */
export const KILL_WAIT_MS = 10_000;
const STREAM_WAIT_MS = 1000;

/**
 * `killedAtOnce` is what the harness's own kill found and SIGKILLed together (null when the leader exited by itself):
 * anything of the tree found alive beyond it escaped that kill and is a survivor. After a natural exit, what the
 * leader left behind is killed here and counted, not held against it (no crash was claimed at that moment).
 */
export async function endTree(driver: LiveDriver, killedAtOnce: KilledProc[] | null, streamsClosed: Promise<unknown>): Promise<TreeEnd> {
  const atOnce = killedAtOnce ?? [];
  const late = killTrees([driver], new Set(atOnce.map(key)));
  // A response written just before a natural exit may still sit in the pipe; with every writer dead, the pipes close.
  await within(streamsClosed, STREAM_WAIT_MS);
  const ended = killedAtOnce === null ? late : atOnce;
  const stuck = await awaitGone([...atOnce, ...late], KILL_WAIT_MS);
  const survivors: ProcessEvidence[] = [];
  const stuckKeys = new Set(stuck.map(key));
  if (killedAtOnce !== null) for (const p of late) if (!stuckKeys.has(key(p))) survivors.push(evidenceOf(p));
  for (const p of stuck) survivors.push(evidenceOf(p));
  const proof = provenSurvivors(driver, [...driver.dirs].map(real), { others: otherDrivers(driver.pgid), externalState: driver.externalState });
  const counted = new Set([...survivors.map((s) => s.pid)]);
  const holdsOf = new Map(proof.holders.map((h) => [h.proc.pid, h.holds]));
  for (const p of proof.tree) if (!counted.has(p.pid)) survivors.push(evidenceOf(p, holdsOf.get(p.pid) ?? []));
  for (const h of proof.holders) if (!counted.has(h.proc.pid) && !proof.tree.some((p) => p.pid === h.proc.pid)) survivors.push(evidenceOf(h.proc, h.holds));
  if (survivors.length > 0) await cleanUp([...proof.tree, ...proof.holders.map((h) => h.proc)]);
  return {
    processes: ended.length,
    escaped: ended.filter((p) => p.pgrp !== driver.pgid).map((p) => evidenceOf(p)),
    survivors: survivors.sort((a, b) => a.pid - b.pid),
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
