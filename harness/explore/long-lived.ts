// Two long-lived drivers on one directory: the primary reads (gates, replays, the listing), a second process changes
// rows (another worker's prepare, an operator's resolution, the run finished elsewhere), and the primary reads again.
// The model checks both answers against the rows: a journal that keeps what it read in its process answers stale.
import type { JournalClient } from '../engine/journal-client.js';
import { nodePrepare } from '../engine/node-prepare.js';
import { DEFAULT_MAPPING } from '../engine/projections.js';
import { gateEveryNode } from '../engine/run-engine.js';
import type { Activity } from './case.js';
import type { Exec } from './execute.js';
import { runActivity } from './activities.js';
import { closeQuietly } from './races.js';

export type LongLived = Extract<Activity, { kind: 'long-lived' }>;

/** The read, the other process's change, the same read again; a no-op for a run that has not started. */
export async function longLived(x: Exec, a: LongLived): Promise<void> {
  const started = [...x.started].sort((p, q) => p - q);
  // Finishing needs a run another process can take up (paused, a node done): any such run; else another worker's prepare.
  const paused = started.filter((r) => !terminal(x, r) && completed(x, r).size > 0 && x.runs[r]!.nodes.some((n) => !completed(x, r).has(n.nodeId)));
  const change = a.change === 'finish' && paused.length === 0 ? 'prepare' : a.change;
  const pool = change === 'finish' ? paused : started;
  if (pool.length === 0) return;
  const i = pool[a.run % pool.length]!;
  x.t.note({ kind: 'note', text: `a second long-lived driver ${change === 'prepare' ? 'prepares another effect in' : change === 'resolve' ? 'resolves what needs attention in' : 'finishes'} run ${JSON.stringify(x.runs[i]!.runId)} between two reads of the primary` });
  // Replays are read only while the run can be resumed, and then read again whatever the other process did.
  const replays = terminal(x, i) ? new Set<string>() : completed(x, i);
  await reads(x, i, replays);
  const env = x.clock.env();
  const other = await x.ownDriver('other', { journalDir: x.journalDir, ...(env ? { env } : {}) });
  try {
    await changeRows(x, other, i, change);
  } finally {
    await closeQuietly(other);
  }
  await reads(x, i, replays);
}

// What a long-lived engine reads before it schedules: every node's gate, the listing, and the prepare of each call of
// the `done` nodes (a replay while their rows last; once the run finished elsewhere and swept them, a new row).
async function reads(x: Exec, i: number, done: ReadonlySet<string>): Promise<void> {
  const run = x.runs[i]!;
  await gateEveryNode(x.primary, run);
  await x.primary.op('listEffects', {});
  for (const node of run.nodes.filter((n) => done.has(n.nodeId))) {
    const mapping = node.mapping ?? DEFAULT_MAPPING;
    for (const call of node.calls) await x.primary.op('prepare', nodePrepare(x.t, run.runId, node.nodeId, call, { attempt: 1, mapping, owner: 'engine-long-lived', generation: 0 }));
  }
}

// The other process acts as the engine would there: the same activities, on its own driver.
async function changeRows(x: Exec, other: JournalClient, i: number, change: LongLived['change']): Promise<void> {
  const run = x.runs[i]!;
  if (change === 'prepare') {
    // Another worker's effect in the run's first node, left unresolved (it died, or is still calling the target).
    await other.op('prepare', {
      correlation: { kind: 'run', runId: run.runId, nodeId: run.nodes[0]!.nodeId, attempt: 1 },
      slot: 90 + x.raceCount++, toolId: 'http_request', tier: 3, args: { method: 'POST', note: 'another worker' }, secretArgKeys: [],
      outputMappingConfig: { ...DEFAULT_MAPPING },
      audit: { providerAttempt: 1, callId: x.t.rng.id('call'), ownerId: 'engine-other-worker', generation: 0 },
    });
    return;
  }
  const primary = x.primary;
  x.primary = other;
  try {
    await runActivity(x, change === 'resolve' ? { kind: 'resolve', run: i } : { kind: 'run-rest', run: i });
  } finally {
    x.primary = primary;
  }
}

function terminal(x: Exec, i: number): boolean {
  return x.t.log.ended(x.runs[i]!.runId);
}

function completed(x: Exec, i: number): Set<string> {
  return x.t.log.completedNodes(x.runs[i]!.runId);
}
