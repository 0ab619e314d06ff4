// Crash points 2 and 3: killed after the prepare (before or after the target call), before the settle.
import { defineScenario } from '../../harness/scenario.js';
import { crashDuringRun, isUnresolved, nodeRows, singleNodeRun, snapshotAfter, snapshotBefore } from '../support.js';
import { resumeRun } from '../../harness/engine/run-engine.js';
import type { BoundaryName } from '../../harness/engine/crash-plan.js';
import { expectGate } from '../../harness/model/gate-table.js';

export const cp02cp03 = [
  unresolvedScenario('cp02.after-prepare.tier3', 'after-prepare', 0, 'effect-journal §12.2, §4'),
  unresolvedScenario('cp03.after-dispatch.tier3', 'after-dispatch', 1, 'effect-journal §12.3, §4'),
];

function unresolvedScenario(id: string, boundary: BoundaryName, writes: number, spec: string) {
  return defineScenario({
    id,
    title: `Kill ${boundary.replace('after-', 'after the ')}, before the settle (tier 3)`,
    spec,
    tags: ['crash-matrix', 'run', 'gate', 'tier3'],
    needs: [],
    description: `SIGKILL at the protocol boundary ${boundary}; a fresh driver resumes the run through the pre-flight gate.`,
    asserts: ['the gate refuses with effect_needs_attention and names tier 3', 'the run fails with effect_needs_attention', `the target saw ${writes} physical write(s) and no retry`, 'the row stays unresolved'],
    async trial(t) {
      const run = singleNodeRun(t);
      await crashDuringRun(t, run, { kind: 'boundary', boundary });
      const client = await t.driver();
      await snapshotBefore(t, client);
      const attemptsBefore = t.world.counts().dispatchAttempts;
      const out = await resumeRun(t, client, run);
      const gate = out.gates[0];
      // The model's §4 table for the one row the kill left: tier 3, prepared, nothing retained.
      const expected = expectGate([{ tier: 3, state: 'unresolved', retained: false }], t.capabilities.tierMode);
      t.expect('gate decision', expected.decision, gate?.decision);
      t.expect('gate refusal code', expected.refusal?.code, gate?.refusal?.code);
      t.expect('gate refusal names the tier', expected.refusal?.tiers[0], gate?.refusal?.tier);
      t.expect('run error code', 'effect_needs_attention', out.errorCode);
      t.expect('prepares after restart', 0, out.verdicts.length);
      t.expect('physical writes', writes, t.world.counts().physicalWrites);
      t.expect('dispatch attempts after restart', attemptsBefore, t.world.counts().dispatchAttempts);
      const after = await snapshotAfter(t, client);
      t.expect('row unresolved after resume', true, isUnresolved(nodeRows(after, run.runId, 'node-a')[0]));
    },
  });
}
