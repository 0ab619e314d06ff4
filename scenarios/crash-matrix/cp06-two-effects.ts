// Crash point 6: two effects in one node; the gate decides over every row of the node.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { crashDuringRun, defaultCall, nodeRows, runEffectKey, singleNodeRun, snapshotAfter, snapshotBefore } from '../support.js';
import { resumeRun } from '../../harness/engine/run-engine.js';
import type { ToolCall } from '../../harness/engine/model.js';
import { expectGate, expectPrepare } from '../../harness/model/gate-table.js';

const first = defaultCall({ slot: 0, target: 'payments' });
const second = defaultCall({ slot: 1, toolId: 'write_file', target: 'ledger-file', args: { path: '/var/ledger', append: true, line: 'debit 42' }, secretArgKeys: [] });

export const cp06: Scenario[] = [
  defineScenario({
    id: 'cp06.two-effects.kill-between',
    title: 'Two effects in one node, killed between them: the first replays, the second runs once',
    spec: 'effect-journal §12.6, §4',
    tags: ['crash-matrix', 'run', 'gate', 'replay'],
    needs: [],
    description: 'SIGKILL after the first effect settled and before the second was prepared.',
    asserts: ['the gate passes', 'slot 0 replays, slot 1 proceeds', 'each effect has exactly one physical write', 'no duplicate writes'],
    async trial(t) {
      const run = singleNodeRun(t, { calls: [first, second] });
      await crashDuringRun(t, run, { kind: 'boundary', boundary: 'after-settle', occurrence: 1 });
      const client = await t.driver();
      await snapshotBefore(t, client);
      const out = await resumeRun(t, client, run);
      // The model: slot 0 committed with its result, slot 1 never prepared.
      t.expect('gate decision', expectGate([{ tier: first.tier, state: 'committed', retained: true }], t.capabilities.tierMode).decision, out.gates[0]?.decision);
      const committed = { scope: 'run' as const, state: 'committed' as const, resolution: null, legacyDigest: false, sameArgs: 'same' as const, sameMapping: true, retained: true };
      t.expect('re-run verdicts by slot', [expectPrepare(committed)[0]?.verdict, expectPrepare(null)[0]?.verdict], out.verdicts.map((v) => v.verdict.verdict));
      t.expect('writes of slot 0', 1, t.world.writesFor(runEffectKey(run, 'node-a', first)));
      t.expect('writes of slot 1', 1, t.world.writesFor(runEffectKey(run, 'node-a', second)));
      t.expect('duplicate writes', 0, t.world.counts().duplicateWrites);
      await snapshotAfter(t, client);
    },
  }),
  unresolvedWithCommitted('cp06.two-effects.second-unresolved', [first, second], 1),
  unresolvedWithCommitted('cp06.two-effects.first-unresolved', [second, first], 0),
];

// The node's calls run in the provider's order; the later one is left unresolved while the earlier is committed.
function unresolvedWithCommitted(id: string, order: ToolCall[], unresolvedSlot: number): Scenario {
  return defineScenario({
    id,
    title: `Two effects in one node: slot ${unresolvedSlot} unresolved blocks although the other is committed`,
    spec: 'effect-journal §12.6, §4',
    tags: ['crash-matrix', 'run', 'gate'],
    needs: [],
    description: `Calls issued in slot order [${order.map((c) => c.slot).join(', ')}]; SIGKILL after the second call's dispatch, before its settle.`,
    asserts: ['the gate refuses and lists the unresolved effect', 'the committed effect does not wave the node through', 'each effect has at most one physical write', 'nothing is retried'],
    async trial(t) {
      const run = singleNodeRun(t, { calls: order });
      await crashDuringRun(t, run, { kind: 'boundary', boundary: 'after-dispatch', occurrence: 2 });
      const client = await t.driver();
      const before = await snapshotBefore(t, client);
      const unresolved = nodeRows(before, run.runId, 'node-a').find((r) => r.slot === unresolvedSlot);
      const out = await resumeRun(t, client, run);
      const rows = order.map((c) => ({ tier: c.tier, state: c.slot === unresolvedSlot ? ('unresolved' as const) : ('committed' as const), retained: c.slot !== unresolvedSlot }));
      t.expect('gate decision', expectGate(rows, t.capabilities.tierMode).decision, out.gates[0]?.decision);
      t.expect('refusal lists the unresolved effect', true, unresolved !== undefined && (out.gates[0]?.refusal?.effectIds ?? []).includes(unresolved.effectId));
      t.expect('prepares after restart', 0, out.verdicts.length);
      for (const call of order) t.expect(`writes of slot ${call.slot}`, 1, t.world.writesFor(runEffectKey(run, 'node-a', call)));
      t.expect('dispatch attempts', 2, t.world.counts().dispatchAttempts);
      await snapshotAfter(t, client);
    },
  });
}
