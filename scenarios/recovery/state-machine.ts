// §6 as a table: a settle moves only a prepared row; from every other state, and for every id that is no row's, it is an
// error that changes nothing (no late answer turns an ambiguous row into a commit), before and after a restart.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { snapshotAfter, snapshotBefore } from '../support.js';
import { changedRows, committedRow, expectVerdict, killAndRestart, proceed, resultFor, rowsById, runPrepare } from '../metamorphic-support.js';
import { expectPrepare } from '../../harness/model/gate-table.js';
import type { OpParams } from '../../shared/protocol/schemas.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';

type Settle = OpParams<'settle'>;

export const metamorphicStateMachine: Scenario[] = [
  defineScenario({
    id: 'recovery.settle.moves-only-prepared',
    title: 'Settle moves only a prepared row: from committed, ambiguous or needs_attention, and for ids no row has, it is an error that changes nothing',
    spec: 'effect-journal §6 (prepared → committed | ambiguous; ambiguous → committed only by tier-2 reconciliation; committed is final), §4',
    tags: ['run', 'state-machine', 'metamorphic'],
    needs: [],
    description:
      'Rows are left committed with a result, committed without one, ambiguous (the target timed out) and, when the journal moves it there, needs_attention. Each is settled again in every way a late or confused writer could (committed with a result, committed without, ambiguous): each must answer settle_already_settled and leave every row and every gate answer as it was. Ids that are no row\'s (never issued, a swept row\'s, an issued id with a suffix) answer settle_no_row. A prepared control row settles normally. After a SIGKILL and a restart the rows, the gates and the re-run prepares still say what the record said.',
    asserts: [
      'a settle of a row that is not prepared answers settle_already_settled and changes no row',
      'a settle of an id no row has answers settle_no_row and changes no row',
      'a prepared row settles (the control)',
      'after a restart every gate and re-run prepare answers as before the settles',
    ],
    async trial(t) {
      let client = await t.driver();
      const runId = t.rng.id('run');
      const at = (nodeId: string) => runPrepare(t, runId, nodeId);
      const committed = await committedRow(client, at('committed'), resultFor('committed'), 'the committed row');
      const unretained = await committedRow(client, at('unretained'), null, 'the committed row without a result');
      const ambiguous = await proceed(client, at('ambiguous'), 'the ambiguous row');
      await client.op('settle', { effectId: ambiguous, state: 'ambiguous', reason: 'the target did not answer' });
      const flagged = await proceed(client, at('attention'), 'the row the gate flags');
      await client.op('gate', { scope: { kind: 'run', runId, nodeId: 'attention' }, attempt: 1 });
      const listed = await rowsById(client);
      const targets: Array<[string, string, string]> = [['committed', committed, 'committed'], ['committed without a result', unretained, 'unretained'], ['ambiguous', ambiguous, 'ambiguous']];
      // Moving an unresolved row to needs_attention is the journal's choice (§6); only a row it moved is probed as such.
      if (listed.get(flagged)?.state === 'needs_attention') targets.push(['needs_attention', flagged, 'attention']);
      const swept = await committedRow(client, runPrepare(t, `${runId}-done`, 'n'), resultFor('swept'), 'the swept row');
      await client.op('runTerminal', { runId: `${runId}-done` });
      const nodes = ['committed', 'unretained', 'ambiguous', 'attention'];
      const gatesBefore = await gates(t, client, runId, nodes);
      const late: Array<[string, (id: string) => Settle]> = [
        ['committed with a result (a late answer)', (id) => ({ effectId: id, state: 'committed', result: resultFor('late') })],
        ['committed without a result', (id) => ({ effectId: id, state: 'committed', result: null })],
        ['ambiguous', (id) => ({ effectId: id, state: 'ambiguous', reason: 'late timeout' })],
      ];
      for (const [state, id] of targets) {
        for (const [how, settle] of late) await probe(t, client, `settle of the ${state} row as ${how}`, settle(id), 'settle_already_settled');
      }
      const live = new Set((await rowsById(client)).keys());
      const unknown = ['987654321', `${committed}x`, `x${ambiguous}`, ...(live.has(swept) ? [] : [swept])];
      for (const id of unknown) await probe(t, client, `settle of ${JSON.stringify(id)}, an id no row has`, { effectId: id, state: 'committed', result: resultFor('foreign') }, 'settle_no_row');
      const control = await proceed(client, at('control'), 'the control row');
      const settled = await client.try('settle', { effectId: control, state: 'committed', result: resultFor('control') });
      t.expect('the prepared control row settles committed', 'committed', settled.ok ? settled.result.state : settled.code);
      t.expect('gates after the settles', gatesBefore, await gates(t, client, runId, nodes));
      await snapshotBefore(t, client);
      client = await killAndRestart(t, client);
      t.expect('gates after a SIGKILL and restart', gatesBefore, await gates(t, client, runId, nodes));
      const again = async (nodeId: string) => client.op('prepare', at(nodeId));
      expectVerdict(t, 'the committed row prepared again', expectPrepare({ scope: 'run', state: 'committed', resolution: null, legacyDigest: false, sameArgs: 'same', sameMapping: true, retained: true }), await again('committed'), resultFor('committed'));
      expectVerdict(t, 'the committed row without a result prepared again', expectPrepare({ scope: 'run', state: 'committed', resolution: null, legacyDigest: false, sameArgs: 'same', sameMapping: true, retained: false }), await again('unretained'));
      for (const nodeId of ['ambiguous', 'attention']) {
        expectVerdict(t, `the ${nodeId} row prepared again`, expectPrepare({ scope: 'run', state: 'unresolved', resolution: null, legacyDigest: false, sameArgs: 'same', sameMapping: true, retained: false }), await again(nodeId));
      }
      await snapshotAfter(t, client);
    },
  }),
  defineScenario({
    id: 'recovery.settle.superseded-id',
    title: 'A late settle of a discarded row\'s id never lands on the row that replaced it',
    spec: 'effect-journal §6 ("needs_attention → an operator resolved it"), §8 (discarded: the node may run again), §2 EffectAttemptId',
    tags: ['run', 'state-machine', 'resolution', 'metamorphic'],
    needs: ['resolution'],
    description:
      'A tier-3 effect is prepared and its worker is presumed dead; the gate refuses, an operator discards the row and the node runs again: its prepare proceeds as a new row. Then the old worker\'s call returns and it settles the id it was given. Whatever the journal answers, the replacement row must not change: it stays prepared until its own settle, and a later re-run replays the replacement\'s result, never the old worker\'s.',
    asserts: ['the replacement row is unchanged by the superseded id\'s settle', 'its own settle commits it', 'a re-run replays the replacement\'s result'],
    async trial(t) {
      let client = await t.driver();
      const runId = t.rng.id('run');
      const p = runPrepare(t, runId, 'node-a');
      const old = await proceed(client, p, 'the first occurrence');
      await committedRow(client, runPrepare(t, runId, 'node-b'), resultFor('node-b'), 'a later row of another node');
      t.expect('gate before the resolution', 'refuse', (await client.op('gate', { scope: { kind: 'run', runId, nodeId: 'node-a' }, attempt: 1 })).decision);
      await client.op('resolve', { effectId: old, decision: 'discarded', actor: 'operator@example.test' });
      const fresh = await proceed(client, { ...p, audit: { ...p.audit, callId: t.rng.id('call') } }, 'the re-run after the discard');
      const before = (await rowsById(client)).get(fresh);
      if (fresh !== old) {
        await client.try('settle', { effectId: old, state: 'committed', result: resultFor('old worker') });
        t.expect('the replacement row after the superseded id\'s settle', before, (await rowsById(client)).get(fresh));
      }
      const own = await client.try('settle', { effectId: fresh, state: 'committed', result: resultFor('replacement') });
      t.expect('the replacement\'s own settle', 'committed', own.ok ? own.result.state : own.code);
      await snapshotBefore(t, client);
      client = await killAndRestart(t, client);
      const again = await client.op('prepare', { ...p, audit: { ...p.audit, callId: t.rng.id('call') } });
      expectVerdict(t, 'a re-run of the node after a restart', [{ verdict: 'replay' }], again, resultFor('replacement'));
      await snapshotAfter(t, client);
    },
  }),
  defineScenario({
    id: 'recovery.reconcile.only-its-cells',
    title: 'Reconcile applies only the evidence its tier reads, to rows the gate would reconcile: tier 3, a retained commit or the other tier\'s evidence is refused and changes nothing',
    spec: 'effect-journal §1 (tier 3: at-most-once, never auto-retried), §4 (tier 1 retries under the key, tier 2 reconciles from a receipt), §6 (committed is final)',
    tags: ['run', 'state-machine', 'tiers', 'metamorphic'],
    needs: ['tierMode:reconciling'],
    description:
      'A reconciling journal is handed evidence its table never asks for: proven absence for a tier-3 row (it would be executed again), proven absence for a tier-2 row committed with its result (a retained commit reopened), a receipt for a tier-1 row, a keyed retry for a tier-2 row, and any evidence for an id no row has. Each must answer reconcile_invalid and leave every row as it was; a receipt for a prepared tier-2 row (the control) commits it.',
    asserts: ['evidence outside the tier\'s cell answers reconcile_invalid and changes no row', 'the tier-2 receipt commits its row (the control)'],
    async trial(t) {
      const client = await t.driver();
      const runId = t.rng.id('run');
      const at = (nodeId: string, tier: 1 | 2 | 3) => runPrepare(t, runId, nodeId, { tier });
      const tier3 = await proceed(client, at('tier3', 3), 'a tier-3 row');
      const retained = await committedRow(client, at('tier2-retained', 2), resultFor('retained'), 'a retained tier-2 commit');
      const tier1 = await proceed(client, at('tier1', 1), 'a tier-1 row');
      const tier2 = await proceed(client, at('tier2', 2), 'a tier-2 row');
      const found = { kind: 'receipt_found' as const, result: resultFor('receipt') };
      const retried = { kind: 'retried_with_key' as const, result: resultFor('retried') };
      const wrong: Array<[string, OpParams<'reconcile'>]> = [
        ['proven absence for a tier-3 row', { effectId: tier3, evidence: { kind: 'receipt_absent' } }],
        ['a receipt for a tier-3 row', { effectId: tier3, evidence: found }],
        ['proven absence for a tier-2 row committed with its result', { effectId: retained, evidence: { kind: 'receipt_absent' } }],
        ['a receipt for a tier-2 row committed with its result', { effectId: retained, evidence: found }],
        ['a receipt for a tier-1 row', { effectId: tier1, evidence: found }],
        ['a keyed retry for a tier-2 row', { effectId: tier2, evidence: retried }],
        ['a receipt for an id no row has', { effectId: '987654321', evidence: found }],
      ];
      for (const [what, params] of wrong) {
        const before = await rowsById(client);
        const out = await client.try('reconcile', params);
        t.expect(`reconcile with ${what}`, 'reconcile_invalid', out.ok ? `accepted: ${out.result.state}${out.result.execute ? ', execute' : ''}` : out.code);
        t.expect(`reconcile with ${what}: rows changed`, [], changedRows(before, await rowsById(client)));
      }
      const control = await client.try('reconcile', { effectId: tier2, evidence: found });
      t.expect('a receipt for the prepared tier-2 row', 'committed', control.ok ? control.result.state : control.code);
      await snapshotAfter(t, client);
    },
  }),
];

// One settle that must fail with `code` and leave every row as it was.
async function probe(t: TrialContext, client: JournalClient, name: string, settle: Settle, code: string): Promise<void> {
  const before = await rowsById(client);
  const out = await client.try('settle', settle);
  t.expect(name, code, out.ok ? `accepted as ${out.result.state}` : out.code);
  t.expect(`${name}: rows changed`, [], changedRows(before, await rowsById(client)));
}

// What each node's gate answers, in words that do not depend on effect ids.
async function gates(t: TrialContext, client: JournalClient, runId: string, nodes: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const nodeId of nodes) {
    const g = await client.op('gate', { scope: { kind: 'run', runId, nodeId }, attempt: 1 });
    out[nodeId] = `${g.decision}: ${g.effects.map((e) => `${e.state === 'committed' ? 'committed' : 'unresolved'}/${e.action}`).join(', ')}`;
  }
  return out;
}
