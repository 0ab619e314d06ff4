// S8e: the witnessed effect batch, uninterrupted and with a SIGKILL at every step boundary kind.
import { defineScenario, type Scenario } from './define.js';
import { snapshotAfter } from './support.js';
import type { TrialContext } from '../harness/engine/trial-context.js';
import type { BoundaryName } from '../harness/engine/crash-plan.js';
import { runBatch, type BatchResult } from '../harness/s8e/coordinator.js';
import { buildEntry } from '../harness/s8e/entry.js';
import { s8eFixture } from '../harness/s8e/fixture.js';
import { S8E_SECTION } from '../harness/s8e/section-verifier.js';
import type { StepPhase } from '../harness/s8e/steps.js';
import { tableChecks } from '../harness/s8e/table.js';

const SPEC = 's8e-effect-batch-witness §Captured states, §State machine';
const ASSERTS = [
  '6 newly confirmed writes, 3 confirmed idempotent replays, 5 capability/stage denials (3 authorization, 2 stage)',
  '1 lease conflict, 1 pre-write failure, 1 cancellation before dispatch with 0 dispatch attempts',
  '1 unknown_pending_readback after cancellation, then replayed_confirmed by read-back with no other write',
  '1 approval not-run, 1 dry-run, 2 breaker-open not-runs (breaker opens after 3 authorization denials)',
  '7 physical writes, 0 duplicate writes, 0 restart writes; 9 confirmed receipts in the fold, the unknown excluded',
];

interface KillTarget {
  readonly index: number;
  readonly phase: StepPhase;
  readonly what: string;
}

// One new write, one idempotent replay, the cancelled-after-dispatch action and its later read-back, where each passes the boundary.
const KILL_TARGETS: Record<'after-prepare' | 'after-dispatch' | 'after-settle' | 'after-tool-result', readonly KillTarget[]> = {
  'after-prepare': [
    { index: 1, phase: 'batch', what: 'new write a01' },
    { index: 5, phase: 'batch', what: 'replay a05' },
    { index: 15, phase: 'batch', what: 'cancelled-after-dispatch a15' },
  ],
  'after-dispatch': [
    { index: 1, phase: 'batch', what: 'new write a01' },
    { index: 15, phase: 'batch', what: 'cancelled-after-dispatch a15' },
    { index: 15, phase: 'readback', what: 'replay of unknown a15' },
  ],
  'after-settle': [
    { index: 1, phase: 'batch', what: 'new write a01' },
    { index: 15, phase: 'batch', what: 'ambiguous settle of a15' },
    { index: 15, phase: 'readback', what: 'reconcile of unknown a15' },
  ],
  'after-tool-result': [
    { index: 1, phase: 'batch', what: 'outcome of a01' },
    { index: 5, phase: 'batch', what: 'outcome of replay a05' },
    { index: 6, phase: 'batch', what: 'first authorization denial a06' },
    { index: 15, phase: 'readback', what: 'resolution of unknown a15' },
  ],
};

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
  ...(Object.keys(KILL_TARGETS) as Array<keyof typeof KILL_TARGETS>).map((boundary) => killedAt(boundary)),
];

function killedAt(boundary: keyof typeof KILL_TARGETS): Scenario {
  const targets = KILL_TARGETS[boundary];
  return defineScenario({
    id: `s8e.kill.${boundary}`,
    title: `S8e batch killed at ${boundary} (${targets.length} kills, each followed by a restart): same states and fold, no duplicate or restart write`,
    spec: `${SPEC}, §Exactly-once qualification`,
    tags: ['s8e', 'witness', 'tier1', 'crash'],
    needs: ['tierMode:reconciling'],
    description: `SIGKILL at ${boundary} of ${targets.map((x) => x.what).join(', ')}; after each restart the coordinator resumes from its durable log and the journal's gate.`,
    asserts: [...ASSERTS, `${targets.length} SIGKILLs at ${boundary}, each with a restart`],
    async trial(t) {
      const fixture = s8eFixture();
      for (const target of targets) {
        t.planCrash({ kind: 'boundary', boundary: boundary satisfies BoundaryName });
        const client = await t.driver();
        await t.untilCrash(() => runBatch(t, client, fixture, { crashAt: (i, phase) => i === target.index && phase === target.phase }));
      }
      const client = await t.driver();
      const result = await runBatch(t, client, fixture);
      record(t, result);
      t.expect('kills recorded at the planned boundary', targets.map(() => `boundary:${boundary}`), t.kills.map((k) => k.point));
      await snapshotAfter(t, client);
    },
  });
}

// The entry goes into the report section; every row of the S8e table becomes an assertion of the trial.
function record(t: TrialContext, result: BatchResult): void {
  const entry = buildEntry(t, s8eFixture(), result);
  t.sections[S8E_SECTION] = entry;
  for (const c of tableChecks(entry)) t.check(c.name, c.expected, c.actual, c.passed);
}
