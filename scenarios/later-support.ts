// What the clock scenarios (a run resumed hours or days later) share: the run left behind and the checks that age changed nothing.
import { isDeepStrictEqual } from 'node:util';
import { defaultPrepare, isUnresolved, nodeRows } from './support.js';
import { proceeded } from '../harness/engine/setup-verdict.js';
import type { TrialContext } from '../harness/engine/trial-context.js';
import type { JournalClient } from '../harness/engine/journal-client.js';
import type { EffectRow, OpParams, RecordedResult } from '../shared/protocol/schemas.js';

/** A run left by a driver on the real clock: node-a committed with `result`; `unresolved` leaves the run's other rows. */
export interface LeftRun {
  readonly runId: string;
  readonly committed: OpParams<'prepare'>;
}

/**
 * Driver one, on the real clock: the rows a crashed engine would leave. It exits cleanly, so only time differs for the
 * drivers that come later. `unresolved` adds the run's unresolved rows and returns what it read of them.
 */
export async function leaveRun<T>(t: TrialContext, result: RecordedResult, unresolved: (client: JournalClient, runId: string) => Promise<T>): Promise<LeftRun & { readonly left: T }> {
  const runId = t.rng.id('run');
  const client = await t.driver();
  const committed = defaultPrepare(t, runId, 'node-a');
  const id = proceeded(await client.op('prepare', committed), 'node-a\'s effect');
  await client.op('settle', { effectId: id, state: 'committed', result });
  const left = await unresolved(client, runId);
  await client.close();
  return { runId, committed, left };
}

/** Each node's row is still the one unresolved row it was, with no resolution: nothing resolves a row by age (§9). */
export function unresolvedKept(t: TrialContext, all: readonly EffectRow[], runId: string, nodes: readonly string[], label: (node: string) => string): void {
  for (const node of nodes) {
    const left = nodeRows(all, runId, node);
    t.check(label(node), 'one unresolved row, no resolution', left.map((r) => [r.state, r.resolution?.decision ?? null]), left.length === 1 && isUnresolved(left[0]) && left[0]?.resolution === null);
  }
}

/** node-a's re-run prepare replays the result recorded before the clock moved. */
export async function replaysRecorded(t: TrialContext, client: JournalClient, run: LeftRun, result: RecordedResult, name: string): Promise<void> {
  const again = await client.op('prepare', run.committed);
  t.check(name, 'replay of the recorded result', again.verdict, again.verdict === 'replay' && isDeepStrictEqual(again.result, result));
}
