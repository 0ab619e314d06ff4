// Retention a day to ten years later: a resumable run keeps its committed rows, and no unresolved row is swept by age.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { defaultPrepare, nodeRows, rows } from '../support.js';
import { leaveRun, replaysRecorded, unresolvedKept, type LeftRun } from '../later-support.js';
import { DEFAULT_MAPPING, deriveProjections } from '../../harness/engine/projections.js';
import { proceeded } from '../../harness/engine/setup-verdict.js';
import { driverHoursLater } from '../../harness/engine/moved-clock.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';
import type { RecordedResult } from '../../shared/protocol/schemas.js';

const RESULT: RecordedResult = deriveProjections('http_request', '{"echo":"days-later","tail":"END"}', DEFAULT_MAPPING);
// A day and a bit (past a 24-hour expiry), nine days (past a weekly one), 400 days (past a monthly, quarterly or yearly
// one) and ten years: §9 has no age at which a row of a resumable run may go, so no threshold may be left above the test.
const LATER_HOURS = [25, 216, 400 * 24, 3653 * 24] as const;

export const retentionDaysLater: Scenario[] = [
  defineScenario({
    id: 'retention.days-later.resumable-run-keeps-rows',
    title: 'Opened a day, nine days, 400 days and ten years later, a journal keeps a resumable run\'s committed rows and every unresolved row',
    spec: 'effect-journal §9 ("never swept by age"; "committed rows are swept only once their correlation can no longer be resumed"), §4',
    tags: ['run', 'retention', 'clock'],
    needs: ['harness:clock'],
    description:
      'Run R (never terminal, so resumable) leaves node-a committed with a retained result, node-b prepared and node-c settled ambiguous; its driver exits. ' +
      'A fresh driver whose wall clock runs 25 h ahead (libfaketime), then one at 9 days, one at 400 days and one at ten years, each opens the journal, runs another run to its terminal (the run sweep) and checkpoints, ' +
      'so every place a journal might expire rows by age has run; then R is inspected and node-a re-prepared. §9 sweeps committed rows only at the terminal of their own run and never sweeps an unresolved row by age.',
    asserts: ['R\'s committed row survives and its re-run prepare replays the recorded result', 'R\'s unresolved rows survive, unresolved and without a resolution'],
    async trial(t) {
      const run = await leaveRun(t, RESULT, (client, runId) => leaveUnresolved(t, client, runId));
      for (const hours of LATER_HOURS) {
        const client = await driverHoursLater(t, hours);
        await housekeeping(t, client);
        await checkKept(t, client, run, hours < 48 ? `${hours} h later` : hours < 3650 * 24 ? `${hours / 24} days later` : 'ten years later');
        await client.close();
      }
    },
  }),
];

// node-b prepared and never settled, node-c settled ambiguous.
async function leaveUnresolved(t: TrialContext, client: JournalClient, runId: string): Promise<void> {
  proceeded(await client.op('prepare', defaultPrepare(t, runId, 'node-b')), 'node-b\'s effect');
  const c = proceeded(await client.op('prepare', defaultPrepare(t, runId, 'node-c')), 'node-c\'s effect');
  await client.op('settle', { effectId: c, state: 'ambiguous', reason: 'the target did not answer' });
}

// Everything that might expire rows by age, on the moved clock: the open (done), another run's terminal, a checkpoint.
async function housekeeping(t: TrialContext, client: JournalClient): Promise<void> {
  const other = t.rng.id('run');
  const id = proceeded(await client.op('prepare', defaultPrepare(t, other, 'node-a')), 'another run\'s effect');
  await client.op('settle', { effectId: id, state: 'committed', result: RESULT });
  await client.op('runTerminal', { runId: other });
  // Not every journal checkpoints on request; the sweep and the open are what must have run.
  await client.try('checkpoint', {});
}

async function checkKept(t: TrialContext, client: JournalClient, run: LeftRun, when: string): Promise<void> {
  const all = await rows(client);
  const a = nodeRows(all, run.runId, 'node-a');
  t.check(`R's committed row ${when}`, 'one committed row with its result retained', a.map((r) => [r.state, r.resultRetained]), a.length === 1 && a[0]?.state === 'committed' && a[0].resultRetained);
  unresolvedKept(t, all, run.runId, ['node-b', 'node-c'], (node) => `R's ${node} row ${when}`);
  await replaysRecorded(t, client, run, RESULT, `R's re-run prepare of node-a ${when} replays the recorded result`);
}
