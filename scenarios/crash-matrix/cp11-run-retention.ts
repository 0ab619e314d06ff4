// Crash point 11 (runs): committed rows survive while the run is resumable and go at its terminal; unresolved rows never go.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { crashDuringRun, defaultCall, isUnresolved, nodeRows, rows, snapshotAfter, snapshotBefore } from '../support.js';
import { resumeRun, startRun } from '../../harness/engine/run-engine.js';
import type { RunScript } from '../../harness/engine/model.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';

function twoNodeRun(t: TrialContext, second: Partial<RunScript['nodes'][number]> = {}): RunScript {
  return {
    runId: t.rng.id('run'),
    nodes: [
      { nodeId: 'node-a', calls: [defaultCall()] },
      { nodeId: 'node-b', calls: [defaultCall({ toolId: 'write_file', target: 'files', args: { path: '/srv/out', append: true, line: 'x' }, secretArgKeys: [] })], ...second },
    ],
  };
}

export const cp11run: Scenario[] = [
  defineScenario({
    id: 'cp11.retention.resumable-run-keeps-committed',
    title: 'Committed rows of a resumable run survive a restart; the terminal sweeps them',
    spec: 'effect-journal §12.11, §9',
    tags: ['crash-matrix', 'run', 'retention'],
    needs: [],
    description: 'Node A completes, the driver is SIGKILLed before node B starts; a fresh driver must still hold A\'s committed row. Then the run completes and its terminal sweeps committed rows.',
    asserts: ['node A\'s committed row survives the restart', 'the resumed run re-runs only node B', 'after the terminal no committed row of the run remains', 'each effect written once'],
    async trial(t) {
      const run = twoNodeRun(t);
      await crashDuringRun(t, run, { kind: 'boundary', boundary: 'after-node-completed', occurrence: 1 });
      const client = await t.driver();
      const before = await snapshotBefore(t, client);
      t.expect('node A row state after restart', 'committed', nodeRows(before, run.runId, 'node-a')[0]?.state);
      const out = await resumeRun(t, client, run);
      t.expect('run status', 'completed', out.status);
      t.expect('prepares in the resumed run', 1, out.verdicts.length);
      const after = await snapshotAfter(t, client);
      t.expect('committed rows of the run after its terminal', 0, after.filter((r) => r.scope.kind === 'run' && r.scope.runId === run.runId && r.state === 'committed').length);
      t.expect('physical writes', 2, t.world.counts().physicalWrites);
    },
  }),
  defineScenario({
    id: 'cp11.retention.terminal-keeps-unresolved',
    title: 'A failed run\'s terminal sweeps its committed rows and keeps the unresolved one',
    spec: 'effect-journal §12.11, §9',
    tags: ['crash-matrix', 'run', 'retention'],
    needs: [],
    description: 'Node A commits; node B\'s target never answers, so its effect is settled ambiguous and the run fails; the terminal sweep runs. A later resume still refuses.',
    asserts: ['node A\'s committed row is swept at the terminal', 'node B\'s ambiguous row survives', 'a later resume refuses'],
    async trial(t) {
      const run = twoNodeRun(t, { timeoutSlots: [0] });
      const first = await t.driver();
      const out = await startRun(t, first, run);
      t.expect('run error code', 'effect_needs_attention', out.errorCode);
      await first.close();
      const client = await t.driver();
      const before = await snapshotBefore(t, client);
      t.expect('node A rows after the terminal', 0, nodeRows(before, run.runId, 'node-a').length);
      t.expect('node B row unresolved', true, isUnresolved(nodeRows(before, run.runId, 'node-b')[0]));
      const resumed = await resumeRun(t, client, run);
      t.expect('resume gate decision for node B', 'refuse', resumed.gates.at(-1)?.decision);
      await snapshotAfter(t, client);
    },
  }),
  defineScenario({
    id: 'cp11.retention.terminal-sweep-crash',
    title: 'Killed at run-sweep.before-commit: no row is gone yet, and a repeated sweep completes',
    spec: 'effect-journal §12.11, §9',
    tags: ['crash-matrix', 'run', 'retention'],
    needs: ['point:run-sweep.before-commit'],
    // The contract does not make the run sweep one transaction (only the session sweep's chunks "commit together", §9), so
    // this is no all-or-nothing demand: the journal announced the point as "after the deletes, before their commit"
    // (docs/protocol.md), and a kill there must leave every row; a sweep in chunks announces it before its first commit.
    description: 'A two-node run completes and the driver is SIGKILLed where it announced run-sweep.before-commit (after the deletes, before their commit); a fresh driver must still see both committed rows, and a repeated sweep completes.',
    asserts: ['after the kill both committed rows remain (nothing was committed yet where the point was announced)', 'a repeated terminal sweep leaves no committed row'],
    async trial(t) {
      const run = twoNodeRun(t);
      await crashDuringRun(t, run, { kind: 'point', point: 'run-sweep.before-commit' });
      const client = await t.driver();
      const before = await snapshotBefore(t, client);
      const left = before.filter((r) => r.scope.kind === 'run' && r.scope.runId === run.runId).length;
      t.expect('rows left after a kill inside the sweep transaction', 2, left);
      await client.op('runTerminal', { runId: run.runId });
      const after = await rows(client);
      t.expect('rows after a repeated sweep', 0, after.filter((r) => r.scope.kind === 'run' && r.scope.runId === run.runId).length);
      await snapshotAfter(t, client);
    },
  }),
];
