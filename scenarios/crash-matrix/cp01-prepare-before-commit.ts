// Crash point 1: killed inside prepare, before its commit.
import { defineScenario } from '../../harness/scenario.js';
import { crashDuringRun, nodeRows, singleNodeRun, snapshotAfter, snapshotBefore } from '../support.js';
import { resumeRun } from '../../harness/engine/run-engine.js';

export const cp01 = [
  defineScenario({
    id: 'cp01.prepare-before-commit',
    title: 'Kill inside prepare, before its commit',
    spec: 'effect-journal §12.1, §7 step 2',
    tags: ['crash-matrix', 'run', 'prepare'],
    needs: ['point:prepare.before-commit'],
    description: 'The driver is SIGKILLed at its announced point prepare.before-commit; a fresh driver resumes the run.',
    asserts: ['no row survives the uncommitted prepare', 'the gate passes', 'the re-run prepare proceeds', 'the run completes', 'the target saw exactly one physical write'],
    async trial(t) {
      const run = singleNodeRun(t);
      await crashDuringRun(t, run, { kind: 'point', point: 'prepare.before-commit' });
      const client = await t.driver();
      const before = await snapshotBefore(t, client);
      t.expect('rows for the node after the kill', 0, nodeRows(before, run.runId, 'node-a').length);
      const out = await resumeRun(t, client, run);
      t.expect('gate decision', 'pass', out.gates[0]?.decision);
      t.expect('re-run prepare verdict', 'proceed', out.verdicts[0]?.verdict.verdict);
      t.expect('run status', 'completed', out.status);
      t.expect('physical writes', 1, t.world.counts().physicalWrites);
      await snapshotAfter(t, client);
    },
  }),
];
