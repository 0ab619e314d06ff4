// The gate of a run resumed hours and a day later: age never turns an unresolved row into a pass, nor loses a commit.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { defaultPrepare, nodeRows, rows } from '../support.js';
import { leaveRun, replaysRecorded, unresolvedKept, type LeftRun } from '../later-support.js';
import { DEFAULT_MAPPING, deriveProjections } from '../../harness/engine/projections.js';
import { proceeded } from '../../harness/engine/setup-verdict.js';
import { driverHoursLater } from '../../harness/engine/moved-clock.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';
import type { RecordedResult } from '../../shared/protocol/schemas.js';

const RESULT: RecordedResult = deriveProjections('http_request', '{"echo":"hours-later","tail":"END"}', DEFAULT_MAPPING);
// An hour is the age a "stale prepare" heuristic picks: two hours is past it even where the age is counted in whole
// seconds and compared with >; 25 hours is past any daily expiry (keys, committed rows).
const LATER_HOURS = [2, 25] as const;

/** What the resumed run holds: a committed row, an unresolved tier-3 row, an unresolved tier-1 row and its key (`left`). */
type Held = LeftRun & { readonly left: string | null };

export const gateHoursLater: Scenario[] = [
  defineScenario({
    id: 'gate.hours-later.unresolved-and-committed',
    title: 'A run resumed 2 h and 25 h later: the committed row replays, unresolved rows still stop the node',
    spec: 'effect-journal §4, §6, §8, §9 ("Unresolved rows … are never swept by age")',
    tags: ['run', 'gate', 'clock'],
    needs: ['harness:clock'],
    description:
      'A run leaves node-a committed with a retained result, node-b with an unresolved tier-3 effect and node-c with an unresolved tier-1 effect (prepared, never settled); its driver exits. ' +
      'A fresh driver whose wall clock runs 2 h ahead (libfaketime), then another at 25 h, resume the run: each asks the gate of every node, re-prepares node-a and prepares node-b\'s effect again (before any gate, as a racing process would). ' +
      'Nothing in the contract lets the age of a row change what the gate decides: an unresolved row is resolved by an operator or a reconciler, never by time, and a committed row of a resumable run is the evidence the gate reads.',
    asserts: [
      'node-a\'s gate passes and its re-run prepare replays the recorded result, at 2 h and at 25 h',
      'node-b\'s gate refuses, its effect prepared again is refused, and its row stays unresolved with no resolution',
      'node-c\'s gate does not pass, its row stays unresolved, and its idempotency key is the one its prepare stored',
    ],
    async trial(t) {
      const held = await leaveRun(t, RESULT, (client, runId) => leaveUnresolved(t, client, runId));
      for (const hours of LATER_HOURS) {
        const client = await driverHoursLater(t, hours);
        await checkLater(t, client, held, `${hours} h later`);
        await client.close();
      }
    },
  }),
];

// node-b holds an unresolved tier-3 row, node-c an unresolved tier-1 row; its key as the row holds it before any time
// passed (§2: a tier-1 row carries the key the target saw).
async function leaveUnresolved(t: TrialContext, client: JournalClient, runId: string): Promise<string | null> {
  proceeded(await client.op('prepare', defaultPrepare(t, runId, 'node-b')), 'node-b\'s effect');
  proceeded(await client.op('prepare', { ...defaultPrepare(t, runId, 'node-c'), tier: 1 }), 'node-c\'s tier-1 effect');
  return nodeRows(await rows(client), runId, 'node-c')[0]?.idempotencyKey ?? null;
}

async function checkLater(t: TrialContext, client: JournalClient, held: Held, when: string): Promise<void> {
  // An hour-old prepared row is no stale lock to take over: the same call prepared again is still refused (§4, §7). Asked
  // before any gate, as a second process racing the resume would: a gate may move rows (to needs_attention), and the
  // prepare must refuse on its own, whatever state the row was left in.
  const again = await client.op('prepare', defaultPrepare(t, held.runId, 'node-b'));
  t.expect(`node-b's effect prepared again ${when}`, 'refuse', again.verdict);
  const gateA = await client.op('gate', { scope: { kind: 'run', runId: held.runId, nodeId: 'node-a' }, attempt: 1 });
  t.expect(`node-a's gate ${when}`, 'pass', gateA.decision);
  await replaysRecorded(t, client, held, RESULT, `node-a's re-run prepare ${when} replays the recorded result`);
  const gateB = await client.op('gate', { scope: { kind: 'run', runId: held.runId, nodeId: 'node-b' }, attempt: 1 });
  t.expect(`node-b's gate ${when} (an unresolved tier-3 row)`, 'refuse', gateB.decision);
  const gateC = await client.op('gate', { scope: { kind: 'run', runId: held.runId, nodeId: 'node-c' }, attempt: 1 });
  t.check(`node-c's gate ${when} (an unresolved tier-1 row)`, 'reconcile or refuse', gateC.decision, gateC.decision !== 'pass');
  const all = await rows(client);
  unresolvedKept(t, all, held.runId, ['node-b', 'node-c'], (node) => `${node}'s row ${when}`);
  const keyed = nodeRows(all, held.runId, 'node-c')[0];
  // The key was sent to the target with the first attempt: a new one makes a retry a second effect (§2).
  if (held.left !== null && keyed !== undefined) t.expect(`node-c's idempotency key ${when}`, held.left, keyed.idempotencyKey);
}
