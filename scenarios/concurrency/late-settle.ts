// A settle that arrives after another process's operator resolved its row: refused, and the resolution stands.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { isUnresolved, rows, snapshotAfter } from '../support.js';
import { proceed, resultFor, runPrepare } from '../metamorphic-support.js';

export const lateSettle: Scenario[] = [
  defineScenario({
    id: 'concurrency.long-lived.settle-after-resolved-elsewhere',
    title: 'A long-lived process\'s late settle of a row another process\'s operator resolved: its answer and the rows agree',
    spec: 'docs/protocol.md error codes ("settle_already_settled: settle of a row that is no longer prepared"), effect-journal §8 (an operator resolves a row as accepted or discarded), §2 (two processes share one journal)',
    tags: ['run', 'concurrency', 'resolution'],
    needs: ['resolution'],
    description:
      'Drivers A and B are open on the same journal directory and stay open. A prepares a tier-3 effect in node-a and one in node-b and sends them; their answers are slow. ' +
      'Meanwhile an operator\'s tool in B gates both nodes (refused: needs attention) and resolves node-a\'s row as discarded and node-b\'s as accepted. Then the answers arrive and A settles both rows committed. ' +
      'A resolved row is no longer prepared, so each settle is refused with settle_already_settled and the resolution stands; a journal that keeps a resolved row\'s state prepared may instead take the late answer, and then a fresh process reads the row committed. ' +
      'A journal that checks the row\'s state from what its process read before answers the settle as done while the rows say otherwise: the engine then believes the effect recorded, and a re-run of node-a runs it again.',
    asserts: [
      'each late settle is refused with settle_already_settled and a fresh process reads the row with the operator\'s resolution, or it is taken and a fresh process reads the row committed',
    ],
    async trial(t) {
      const runId = t.rng.id('run');
      const a = await t.driver('primary');
      const b = await t.driver('other');
      const nodes = [
        { node: 'node-a', decision: 'discarded' as const },
        { node: 'node-b', decision: 'accepted' as const },
      ];
      const ids = new Map<string, string>();
      for (const { node } of nodes) ids.set(node, await proceed(a, runPrepare(t, runId, node), `A's prepare in ${node}`));
      for (const { node, decision } of nodes) {
        t.expect(`B's gate of ${node} while A's call is out`, 'refuse', (await b.op('gate', { scope: { kind: 'run', runId, nodeId: node }, attempt: 1 })).decision);
        await b.op('resolve', { effectId: ids.get(node)!, decision, actor: 'operator@example.test' });
      }
      const answers = new Map<string, string>();
      for (const { node } of nodes) {
        const late = await a.try('settle', { effectId: ids.get(node)!, state: 'committed', result: resultFor(`late ${node}`) });
        answers.set(node, late.ok ? 'taken' : late.code);
      }
      const fresh = await t.driver('fresh');
      const listed = await rows(fresh);
      for (const { node, decision } of nodes) {
        const r = listed.find((x) => x.effectId === ids.get(node));
        const answer = answers.get(node)!;
        // Refused as settled: the operator's resolution stands (an accepted row may read committed without a result, the
        // allowed accepted-as-committed reading). Taken (a journal that keeps a resolved row's state prepared may let the
        // target's late answer in): the row is committed. Never an answer the rows contradict.
        const stands = r !== undefined && r.resolution?.decision === decision && (isUnresolved(r) || (decision === 'accepted' && r.state === 'committed' && !r.resultRetained));
        const taken = r !== undefined && r.state === 'committed' && r.resultRetained;
        const agree = answer === 'settle_already_settled' ? stands : answer === 'taken' ? taken : false;
        const seen = r === undefined ? 'no row' : `${r.state}${r.resultRetained ? ' with a result' : ''}, ${r.resolution?.decision ?? 'no resolution'}`;
        t.expect(`A's late settle of ${node}'s row after B ${decision} it, and the row a fresh process reads`, 'refused as settled and the resolution stands, or taken and the row committed', agree ? 'refused as settled and the resolution stands, or taken and the row committed' : `${answer === 'taken' ? 'answered as taken' : `error ${answer}`}, but the row reads ${seen}`);
      }
      await snapshotAfter(t, fresh);
    },
  }),
];
