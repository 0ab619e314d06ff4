// §4's gate table cell by cell (tier × state × retained, in the journal's tier mode), and §8's "resuming re-enters the
// gate and stops again": the same node asked on every resume, across SIGKILLs, gets the same answer.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { crashDuringRun, defaultCall, originalOutput, runEffectKey, singleNodeRun, snapshotAfter, snapshotBefore } from '../support.js';
import { committedRow, killAndRestart, proceed, resultFor, runPrepare } from '../metamorphic-support.js';
import { expectGate, type GateRowView } from '../../harness/model/gate-table.js';
import { resumeRun } from '../../harness/engine/run-engine.js';
import type { GateDecision, Tier } from '../../shared/protocol/schemas.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';

type Cell = 'prepared' | 'ambiguous' | 'committed' | 'committed, no result';
const CELLS: readonly Cell[] = ['prepared', 'ambiguous', 'committed', 'committed, no result'];
const TIERS: readonly Tier[] = [1, 2, 3];

export const metamorphicGate: Scenario[] = [
  defineScenario({
    id: 'gate.every-cell',
    title: 'The gate answers every cell of the §4 table in the journal\'s tier mode, alone and mixed in one node, before and after a restart',
    spec: 'effect-journal §4 (the table; "tiers 1 and 2 currently take tier 3\'s row"; "a committed run row is not a green light"), §12.9',
    tags: ['run', 'gate', 'tiers', 'metamorphic'],
    needs: [],
    description:
      'For each tier (1, 2, 3) and each row state the gate reads (prepared, ambiguous, committed with a retained result, committed without one) a node holds that one row; three more nodes mix cells. Every node\'s gate must give the decision, the per-row actions and the named tier the model computes for the journal\'s tier mode (conservative: tiers 1 and 2 refused like tier 3, whatever their state; reconciling: retry under the key, reconcile a receipt). Asked again, and again after a SIGKILL and restart, each gate must answer the same; an ambiguous row never reads back as prepared.',
    asserts: ['each node\'s decision, actions and named tier are the model\'s', 'the same answers on a second ask and after a restart', 'unresolved rows read back unresolved, ambiguous ones never as prepared'],
    async trial(t) {
      let client = await t.driver();
      const runId = t.rng.id('run');
      const nodes: Array<{ nodeId: string; cells: Array<[Tier, Cell]> }> = [];
      for (const tier of TIERS) for (const cell of CELLS) nodes.push({ nodeId: `t${tier}-${cell.replace(/\W+/g, '-')}`, cells: [[tier, cell]] });
      nodes.push({ nodeId: 'mixed-replay-and-unretained-t1', cells: [[3, 'committed'], [1, 'committed, no result']] });
      nodes.push({ nodeId: 'mixed-t2-ambiguous-t3-committed', cells: [[3, 'committed'], [2, 'ambiguous']] });
      nodes.push({ nodeId: 'mixed-all-committed', cells: [[1, 'committed'], [2, 'committed'], [3, 'committed']] });
      for (const node of nodes) for (const [slot, [tier, cell]] of node.cells.entries()) await make(t, client, runId, node.nodeId, slot, tier, cell);
      const expected = Object.fromEntries(nodes.map((n) => [n.nodeId, words(expectGate(n.cells.map(([tier, cell]) => view(tier, cell)), t.capabilities.tierMode))]));
      const ask = async (c: JournalClient, when: string) => {
        const got: Record<string, string> = {};
        for (const node of nodes) {
          const g = await c.op('gate', { scope: { kind: 'run', runId, nodeId: node.nodeId }, attempt: 1 });
          got[node.nodeId] = observed(g);
          const backwards = g.effects.filter((e, i) => node.cells[i]?.[1] === 'ambiguous' && e.state === 'prepared');
          if (backwards.length > 0) t.expect(`${when}: ${node.nodeId}'s ambiguous row reads back`, 'ambiguous | needs_attention', 'prepared');
        }
        t.expect(`${when}: every node's gate (decision, actions, named tier)`, expected, got);
      };
      await ask(client, 'first ask');
      await ask(client, 'second ask');
      await snapshotBefore(t, client);
      client = await killAndRestart(t, client);
      await ask(client, 'after a SIGKILL and restart');
      await snapshotAfter(t, client);
    },
  }),
  defineScenario({
    id: 'gate.resume-again',
    title: 'A node left unresolved is refused on every resume, across SIGKILLs; a node left committed replays the same result on every resume',
    spec: 'effect-journal §8 ("the run is not resumable past the unresolved effect; resuming it re-enters the gate in §4 and stops again"), §4',
    tags: ['run', 'gate', 'needs-attention', 'metamorphic', 'crash-matrix'],
    needs: [],
    description:
      'A run is SIGKILLed after its tier-3 effect was dispatched; it is resumed three times, with a SIGKILL after the first resume\'s gate and a restart after the second, and every resume must be refused the same way (same decision, same blocking rows, same tier) with nothing dispatched again. A second run is SIGKILLed after its settle, then SIGKILLed again right after its resume\'s replaying prepare, before node:completed: the next resume must replay the same recorded result again.',
    asserts: ['every resume of the unresolved node is refused naming the same rows and tier', 'nothing is dispatched again', 'a replay interrupted by a kill replays again, the same result', 'one physical write per effect'],
    async trial(t) {
      const stuck = singleNodeRun(t);
      await crashDuringRun(t, stuck, { kind: 'boundary', boundary: 'after-dispatch' });
      let client = await t.driver();
      const first = await resumeRun(t, client, stuck);
      const refusal = (g: GateDecision | undefined) => `${g?.decision}: ${g?.refusal?.code ?? 'no refusal'}, tier ${g?.refusal?.tier ?? '-'}, ${g?.refusal?.effectIds.length ?? 0} row(s)`;
      t.expect('first resume', 'refuse: effect_needs_attention, tier 3, 1 row(s)', refusal(first.gates[0]));
      const blocking = first.gates[0]?.refusal?.effectIds ?? [];
      for (const when of ['second resume, after a SIGKILL', 'third resume, after a restart']) {
        client = when.includes('SIGKILL') ? await killAndRestart(t, client) : await (async () => (await client.close(), t.driver()))();
        const again = await resumeRun(t, client, stuck);
        t.expect(when, refusal(first.gates[0]), refusal(again.gates[0]));
        t.expect(`${when}: the blocking rows`, blocking, again.gates[0]?.refusal?.effectIds ?? []);
        t.expect(`${when}: prepares`, 0, again.verdicts.length);
      }
      t.expect('writes of the unresolved effect', 1, t.world.writesFor(runEffectKey(stuck, 'node-a', defaultCall())));
      const done = singleNodeRun(t);
      await client.close();
      await crashDuringRun(t, done, { kind: 'boundary', boundary: 'after-settle' });
      t.planCrash({ kind: 'boundary', boundary: 'after-prepare' });
      client = await t.driver();
      const interrupted = client;
      await t.untilCrash(() => resumeRun(t, interrupted, done));
      client = await t.driver();
      await snapshotBefore(t, client);
      const last = await resumeRun(t, client, done);
      t.expect('the resume after a kill inside the replay', ['replay'], last.verdicts.map((v) => v.verdict.verdict));
      t.expect('node output after the interrupted replay is the original one', originalOutput(t, done, done.nodes[0]!), last.outputs['node-a']);
      t.expect('writes of the committed effect', 1, t.world.writesFor(runEffectKey(done, 'node-a', defaultCall())));
      t.expect('duplicate writes', 0, t.world.counts().duplicateWrites);
      await snapshotAfter(t, client);
    },
  }),
];

// One row of `runId/nodeId` at `slot` left in `cell`.
async function make(t: TrialContext, client: JournalClient, runId: string, nodeId: string, slot: number, tier: Tier, cell: Cell): Promise<void> {
  const p = runPrepare(t, runId, nodeId, { slot, tier, toolId: `tool-${slot}` });
  if (cell === 'committed') return void (await committedRow(client, p, resultFor(`${nodeId}/${slot}`), `${nodeId} slot ${slot}`));
  if (cell === 'committed, no result') return void (await committedRow(client, p, null, `${nodeId} slot ${slot}`));
  const id = await proceed(client, p, `${nodeId} slot ${slot}`);
  if (cell === 'ambiguous') await client.op('settle', { effectId: id, state: 'ambiguous', reason: 'the target did not answer' });
}

function view(tier: Tier, cell: Cell): GateRowView {
  return { tier, state: cell === 'prepared' || cell === 'ambiguous' ? 'unresolved' : 'committed', retained: cell === 'committed', resolution: null };
}

function words(e: ReturnType<typeof expectGate>): string {
  const tiers = e.refusal === null ? '' : `, names tier ${e.refusal.tiers.join(' or ')}`;
  return `${e.decision}: ${e.actions.join(', ')}${tiers}`;
}

// The observed gate in the words `words` uses; a named tier the model allows is written as the model writes it.
function observed(g: GateDecision): string {
  const actions = [...g.effects].sort((a, b) => a.slot - b.slot).map((e) => e.action).join(', ');
  return `${g.decision}: ${actions}${g.refusal === null ? '' : `, names tier ${g.refusal.tier}`}`;
}
