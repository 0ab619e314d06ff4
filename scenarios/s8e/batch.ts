// S8e: the witnessed effect batch, uninterrupted and with a SIGKILL at every step boundary passage.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { snapshotAfter } from '../support.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import { runBatch, type BatchResult } from '../../harness/s8e/coordinator.js';
import { buildEntry } from '../../harness/s8e/entry.js';
import { s8eFixture } from '../../harness/s8e/fixture.js';
import { S8E_SECTION } from '../../harness/s8e/section-verifier.js';
import { runEveryStep } from '../../harness/s8e/every-step.js';
import { STEP_BOUNDARIES, type StepBoundary } from '../../harness/s8e/steps.js';
import { tableChecks } from '../../harness/s8e/table.js';

const SPEC = 's8e-effect-batch-witness §Captured states, §State machine';
const ASSERTS = [
  '6 newly confirmed writes, 3 confirmed idempotent replays, 5 capability/stage denials (3 authorization, 2 stage)',
  '1 lease conflict, 1 pre-write failure, 1 cancellation before dispatch with 0 dispatch attempts',
  '1 unknown_pending_readback after cancellation, then replayed_confirmed by read-back with no other write',
  '1 approval not-run, 1 dry-run, 2 breaker-open not-runs (breaker opens after 3 authorization denials)',
  '7 physical writes, 0 duplicate writes, 0 restart writes; 9 confirmed receipts in the fold, the unknown excluded',
];

export const s8e: Scenario[] = [
  defineScenario({
    id: 's8e.batch',
    title: 'S8e: the 22-action witnessed effect batch yields exactly the captured states and counts',
    spec: SPEC,
    tags: ['s8e', 'witness', 'tier1'],
    needs: ['tierMode:reconciling'],
    description: 'The controller turns 22 selected actions into bound intents, executes through prepare → dispatch → settle, folds only read-back receipts, then replays the one unknown under its stored key.',
    asserts: ASSERTS,
    async trial(t) {
      const client = await t.driver();
      const result = await runBatch(t, client, s8eFixture());
      record(t, result);
      await snapshotAfter(t, client);
    },
  }),
  ...STEP_BOUNDARIES.map((boundary) => killedAtEvery(boundary)),
];

// Literally every passage: the calibration batch enumerates them, so no kill target is hand-picked.
function killedAtEvery(boundary: StepBoundary): Scenario {
  return defineScenario({
    id: `s8e.kill.every.${boundary}`,
    title: `S8e batch killed at every ${boundary} passage, each in a fresh batch followed by a restart: same states and fold, no duplicate or restart write`,
    spec: `${SPEC}, §Exactly-once qualification`,
    tags: ['s8e', 'witness', 'tier1', 'crash'],
    needs: ['tierMode:reconciling'],
    description:
      `A clean calibration batch (its own journal, target ledger and coordinator log) records every passage of the coordinator through ${boundary}, in the batch pass and in the later read-back of the unknown. ` +
      'Then, for each passage, a fresh batch is SIGKILLed exactly there, a new driver resumes it from the coordinator log and the journal gate, and the finished batch must show the S8e table again. A passage that is not reached leaves the trial inconclusive.',
    asserts: [...ASSERTS.map((a) => `after each kill: ${a}`), `one SIGKILL at each ${boundary} passage of the calibration batch, each followed by a restart`],
    async trial(t) {
      t.sections[S8E_SECTION] = await runEveryStep(t, boundary);
    },
  });
}

// The entry goes into the report section; every row of the S8e table becomes an assertion of the trial.
function record(t: TrialContext, result: BatchResult): void {
  const entry = buildEntry(t, s8eFixture(), result);
  t.sections[S8E_SECTION] = entry;
  for (const c of tableChecks(entry)) t.check(c.name, c.expected, c.actual, c.passed);
}
