// Two long-lived drivers on one journal: A answers, B changes what the answer depends on, A answers again from the rows.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { snapshotAfter } from '../support.js';
import { committedRow, expectVerdict, proceed, resultFor, runPrepare, type Prepare } from '../metamorphic-support.js';
import { expectPrepare, type ExistingRowView } from '../../harness/model/gate-table.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';

// The row view of each prior state the re-runs meet (the same call again: same args, same mapping).
const row = (state: ExistingRowView['state'], resolution: ExistingRowView['resolution'], retained: boolean): ExistingRowView => ({
  scope: 'run', state, resolution, legacyDigest: false, sameArgs: 'same', sameMapping: true, retained,
});

export const longLivedConcurrency: Scenario[] = [
  defineScenario({
    id: 'concurrency.long-lived.replay-after-terminal-elsewhere',
    title: 'A long-lived process that replayed a committed effect answers from the rows after another process swept the run at its terminal',
    spec: 'effect-journal §4 (replay when the identity, the args digest and a retained result all match), §9 (a run\'s committed rows go when the run reaches a terminal), §2 (two processes share one journal)',
    tags: ['run', 'concurrency', 'retention'],
    needs: [],
    description:
      'Drivers A and B are open on the same journal directory and stay open. A prepares and commits a run\'s effect, prepares the same call again (a replay of ' +
      'the recorded result) and gates its node (a pass). B records the run\'s terminal: its committed rows are swept. A prepares the same call once more: ' +
      'the row it would replay is gone, so the answer is a new row (proceed). A journal that keeps the replays it answered in its process answers the old ' +
      'result from memory.',
    asserts: [
      'A\'s first re-run replays the recorded result and its gate passes',
      'after B\'s terminal sweep, A\'s re-run of the same call proceeds as a new row',
    ],
    async trial(t) {
      const runId = t.rng.id('run');
      const a = await t.driver('primary');
      const b = await t.driver('other');
      const p = runPrepare(t, runId, 'node-a');
      await committedRow(a, p, resultFor('node-a'), 'A\'s first prepare');
      expectVerdict(t, 'A\'s re-run before B\'s sweep', expectPrepare(row('committed', null, true)), await a.op('prepare', again(t, p)), resultFor('node-a'));
      t.expect('A\'s gate before B\'s sweep', 'pass', (await a.op('gate', { scope: { kind: 'run', runId, nodeId: 'node-a' }, attempt: 1 })).decision);
      await b.op('runTerminal', { runId });
      expectVerdict(t, 'A\'s re-run after B\'s terminal sweep', expectPrepare(null), await a.op('prepare', again(t, p)));
      await b.close();
      await snapshotAfter(t, a);
    },
  }),
  defineScenario({
    id: 'concurrency.long-lived.gate-after-prepare-elsewhere',
    title: 'A long-lived process whose gate passed a node answers from the rows after another process prepared an effect in it',
    spec: 'effect-journal §4 (the gate refuses a node whose prior attempt left an effect unresolved), §2 (two processes share one journal: another attempt exists)',
    tags: ['run', 'concurrency', 'gate'],
    needs: [],
    description:
      'Drivers A and B are open on the same journal directory and stay open. A commits an effect in node-a and gates the node: it passes. Another ' +
      'worker in B prepares a tier-3 effect in the same node and dies before settling it. A gates node-a again: an unresolved effect is there now, so the ' +
      'gate refuses. A journal that keeps the gate decisions that passed in its process passes from memory.',
    asserts: ['A\'s gate passes before B\'s prepare', 'after B\'s unresolved prepare in the node, A\'s gate refuses'],
    async trial(t) {
      const runId = t.rng.id('run');
      const a = await t.driver('primary');
      const b = await t.driver('other');
      await committedRow(a, runPrepare(t, runId, 'node-a'), resultFor('node-a'), 'A\'s effect in node-a');
      t.expect('A\'s gate before B\'s prepare', 'pass', (await a.op('gate', { scope: { kind: 'run', runId, nodeId: 'node-a' }, attempt: 1 })).decision);
      await proceed(b, runPrepare(t, runId, 'node-a', { slot: 1, args: { method: 'POST', url: 'https://orders.invalid/api', note: 'another worker' } }), 'B\'s prepare in node-a');
      await b.close();
      t.expect('A\'s gate after B\'s unresolved prepare in the node', 'refuse', (await a.op('gate', { scope: { kind: 'run', runId, nodeId: 'node-a' }, attempt: 1 })).decision);
      await snapshotAfter(t, a);
    },
  }),
  defineScenario({
    id: 'concurrency.long-lived.resolved-elsewhere',
    title: 'A long-lived process that refused an unresolved effect answers from the rows after another process\'s operator resolved it',
    spec: 'effect-journal §8 (an operator resolves a row as accepted or discarded: the node may run again), §4 (gate table, prepare verdicts), §2 (two processes share one journal)',
    tags: ['run', 'concurrency', 'resolution'],
    needs: ['resolution'],
    description:
      'Drivers A and B are open on the same journal directory and stay open. A prepares two tier-3 effects of a run, one in node-a and one in node-b, ' +
      'and both workers die (one settled ambiguous, one left prepared). A gates both nodes (refused: needs attention) and prepares both calls again ' +
      '(refused: an unresolved effect holds the identity). An operator\'s tool in B resolves node-a\'s row as discarded and node-b\'s as accepted. A ' +
      'asks again: node-a\'s gate passes and its call proceeds as a new row; node-b\'s gate passes and its call is refused (accepted, but no result to ' +
      're-deliver). A journal that keeps the unresolved identities or refusals it found in its process refuses from memory.',
    asserts: [
      'before the resolutions, A\'s gates refuse and its re-runs are refused',
      'after B\'s resolutions, both gates pass, the discarded call proceeds and the accepted one is refused',
    ],
    async trial(t) {
      const runId = t.rng.id('run');
      const a = await t.driver('primary');
      const b = await t.driver('other');
      const pa = runPrepare(t, runId, 'node-a');
      const pb = runPrepare(t, runId, 'node-b');
      const ida = await proceed(a, pa, 'A\'s prepare in node-a');
      await a.op('settle', { effectId: ida, state: 'ambiguous', reason: 'the worker timed out waiting for the target' });
      const idb = await proceed(a, pb, 'A\'s prepare in node-b');
      for (const [node, p] of [['node-a', pa], ['node-b', pb]] as const) {
        t.expect(`A's gate of ${node} before the resolutions`, 'refuse', (await a.op('gate', { scope: { kind: 'run', runId, nodeId: node }, attempt: 1 })).decision);
        expectVerdict(t, `A's re-run in ${node} before the resolutions`, expectPrepare(row('unresolved', null, false)), await a.op('prepare', again(t, p)));
      }
      await b.op('resolve', { effectId: ida, decision: 'discarded', actor: 'operator@example.test' });
      await b.op('resolve', { effectId: idb, decision: 'accepted', actor: 'operator@example.test' });
      await b.close();
      t.expect('A\'s gate of node-a after B discarded its row', 'pass', (await a.op('gate', { scope: { kind: 'run', runId, nodeId: 'node-a' }, attempt: 1 })).decision);
      expectVerdict(t, 'A\'s re-run in node-a after B discarded its row', expectPrepare(row('unresolved', 'discarded', false)), await a.op('prepare', again(t, pa)));
      t.expect('A\'s gate of node-b after B accepted its row', 'pass', (await a.op('gate', { scope: { kind: 'run', runId, nodeId: 'node-b' }, attempt: 1 })).decision);
      expectVerdict(t, 'A\'s re-run in node-b after B accepted its row', expectPrepare(row('unresolved', 'accepted', false)), await a.op('prepare', again(t, pb)));
      await snapshotAfter(t, a);
    },
  }),
];

// The same call from another provider attempt: only the audit's call id differs.
function again(t: TrialContext, p: Prepare): Prepare {
  return { ...p, audit: { ...p.audit, callId: t.rng.id('call') } };
}
