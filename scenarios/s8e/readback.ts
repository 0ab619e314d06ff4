// S8e against evidence the journal does not control: a restart replays every confirmed write from the journal's record
// alone (no dispatch, no write), and an unknown whose cancelled dispatch never reached the target is not folded as landed.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { deriveProjections } from '../../harness/engine/projections.js';
import { prepareParams, runBatch, type BatchResult } from '../../harness/s8e/coordinator.js';
import { buildEntry } from '../../harness/s8e/entry.js';
import { s8eFixture, type S8eFixture } from '../../harness/s8e/fixture.js';
import { decideAction } from '../../harness/s8e/policy.js';
import { BatchLog } from '../../harness/s8e/batch-log.js';
import { batchLogPath, coordinatorContext, readBack, retryWithStoredKey, rowState, S8E_MAPPING, type CoordinatorContext } from '../../harness/s8e/steps.js';
import { failedTableChecks } from '../../harness/s8e/sweep-entry.js';
import type { ActionOutcome } from '../../harness/s8e/types.js';
import { unresolvedReading } from '../../harness/s8e/table.js';

const SPEC = 's8e-effect-batch-witness §Exactly-once qualification ("restart replay reuses that record"), §State machine';

export const s8eReadback: Scenario[] = [
  defineScenario({
    id: 's8e.restart.replay-reuses-record',
    title: 'S8e: after a SIGKILL, every confirmed write of the batch replays from the journal\'s record with no dispatch and no write',
    spec: SPEC,
    tags: ['s8e', 'witness', 'tier1', 'crash'],
    needs: ['tierMode:reconciling'],
    description:
      'The 22-action batch runs to its end and the driver is SIGKILLed after the unknown\'s read-back. A fresh driver then re-executes every write the batch confirmed (the unknown resolved by read-back included) as a coordinator that lost its own log would: gate, prepare, dispatch only where the journal says so. ' +
      'The target ledger (the harness\'s, not the journal\'s) must see no dispatch attempt and no write, and each replayed record must equal the receipt read back from it.',
    asserts: [
      'the batch before the kill matches the S8e table',
      'after the restart, the gate passes and prepare answers replay for each of the 10 confirmed writes (9 folded and the unknown resolved by read-back)',
      'each replayed record equals the receipt read back from the target ledger',
      'the replay pass makes 0 dispatch attempts and 0 physical writes on the target',
    ],
    async trial(t) {
      const fixture = s8eFixture();
      t.planCrash({ kind: 'boundary', boundary: 'after-tool-result', occurrence: 1 });
      const victim = await t.driver('victim');
      await t.untilCrash(() => runBatch(t, victim, fixture, { crashAt: (_i, phase) => phase === 'readback' }));
      const client = await t.driver();
      // Everything is in the coordinator's log: resuming it sends no operation, it only hands back the outcomes.
      const result = await runBatch(t, client, fixture);
      t.expect('the batch before the kill: the S8e table', [], failedTableChecks(buildEntry(t, fixture, result)));
      const before = t.world.counts();
      const c = coordinatorContext(t, client, fixture);
      const replays = [];
      for (const outcome of confirmedWrites(result)) replays.push(await replayOne(c, outcome, result.outcomes));
      t.expect('confirmed writes replayed after the restart', 10, replays.length);
      t.expect('gate, prepare and read-back of each confirmed write after the restart', replays.map((r) => ({ ...r, gate: 'pass', verdict: 'replay', recordIsReceipt: true })), replays);
      const after = t.world.counts();
      t.expect('target ledger during the replay pass', { dispatchAttempts: 0, physicalWrites: 0 }, { dispatchAttempts: after.dispatchAttempts - before.dispatchAttempts, physicalWrites: after.physicalWrites - before.physicalWrites });
    },
  }),
  defineScenario({
    id: 's8e.unknown.dispatch-lost',
    title: 'S8e: a cancelled dispatch that never reached the target stays unknown until a retry under its key lands and is read back',
    spec: SPEC,
    tags: ['s8e', 'witness', 'tier1', 'crash'],
    needs: ['tierMode:reconciling'],
    description:
      'A three-action batch: a write, a write cancelled after dispatch whose request the harness\'s target never receives (the cancellation won the race), and a replay of the first. ' +
      'The driver is SIGKILLed after the cancelled action; a fresh driver resolves the unknown. The journal must ask for reconciliation of the ambiguous tier-1 row, never treat it as landed: the target\'s ledger shows whether a write exists.',
    asserts: [
      'the cancelled action is unknown_pending_readback and its row unresolved (prepared, ambiguous or needs_attention), also after the restart',
      'the unknown resolves to replayed_confirmed only through a retry under its stored key: one physical write during the read-back',
      'the journal never lists the unknown committed while the target holds no write of it',
      'states: 1 confirmed, 1 idempotent replay, 1 unknown; 2 physical writes, 0 duplicate writes; the fold labels issue-1 only',
    ],
    async trial(t) {
      const fixture = lostDispatchFixture();
      t.planCrash({ kind: 'boundary', boundary: 'after-tool-result', occurrence: 1 });
      const victim = await t.driver('victim');
      await t.untilCrash(() => runBatch(t, victim, fixture, { crashAt: (i, phase) => i === 2 && phase === 'batch' }));
      const client = await t.driver();
      // Still unknown after the restart: nothing but a retry under the key and its read-back may settle it.
      const logged = [...new BatchLog(batchLogPath(t, fixture)).outcomes().values()].filter((o) => o.index < 2);
      const bound = decideAction(fixture, fixture.actions[1]!, logged);
      if (bound.kind === 'execute') t.expect('the unknown\'s row after the restart, before its read-back (prepared, ambiguous or needs_attention)', 'unresolved', unresolvedReading(await rowState(coordinatorContext(t, client, fixture), bound.intent)));
      const result = await runBatch(t, client, fixture);
      const entry = buildEntry(t, fixture, result);
      t.expect('states of the three actions', ['confirmed', 'unknown_pending_readback', 'idempotent_replay_confirmed'], result.outcomes.map((o) => o.state));
      const u = entry.unknown[0];
      t.expect('the unknown after cancellation and after its read-back', { journalState: 'unresolved', resolvedTo: 'replayed_confirmed', journalStateAfter: 'committed', writesDuringReadback: 1, physicalWritesForIntent: 1 }, u && { journalState: unresolvedReading(u.journalState), resolvedTo: u.resolvedTo, journalStateAfter: u.journalStateAfter, writesDuringReadback: u.writesDuringReadback, physicalWritesForIntent: u.physicalWritesForIntent });
      const committedUnwritten = entry.unknown.filter((x) => x.journalStateAfter === 'committed' && x.physicalWritesForIntent === 0).map((x) => x.actionId);
      t.expect('unknowns the journal lists committed while the target holds no write of them', [], committedUnwritten);
      t.expect('target ledger', { physicalWrites: 2, duplicateWrites: 0, restartWrites: 0 }, { physicalWrites: entry.counts.physicalWrites, duplicateWrites: entry.counts.duplicateWrites, restartWrites: entry.counts.restartWrites });
      t.expect('folded labels (the unknown stays out of the fold)', { 'issue-1': 'bug' }, entry.fold.labels);
    },
  }),
];

// The writes a restart must replay: every confirmed outcome, and every unknown its read-back confirmed.
function confirmedWrites(result: BatchResult): ActionOutcome[] {
  const resolved = new Set(result.resolutions.filter((r) => r.to === 'replayed_confirmed').map((r) => r.index));
  return result.outcomes.filter((o) => o.state === 'confirmed' || o.state === 'idempotent_replay_confirmed' || (o.state === 'unknown_pending_readback' && resolved.has(o.index)));
}

interface Replayed {
  actionId: string;
  gate: string;
  verdict: string;
  recordIsReceipt: boolean;
}

// One write re-executed the coordinator's way: reconcile when the gate asks, dispatch when prepare proceeds.
async function replayOne(c: CoordinatorContext, outcome: ActionOutcome, outcomes: readonly ActionOutcome[]): Promise<Replayed> {
  const action = c.fixture.actions[outcome.index - 1]!;
  const decision = decideAction(c.fixture, action, outcomes.slice(0, outcome.index - 1));
  if (decision.kind !== 'execute') throw new Error(`confirmed action ${outcome.actionId} no longer binds an intent`);
  const intent = decision.intent;
  const gate = await c.client.op('gate', { scope: intent.scope, attempt: 1 });
  if (gate.decision === 'reconcile') await retryWithStoredKey(c, outcome.index, intent, gate, 'batch');
  const verdict = await c.client.op('prepare', prepareParams(c, action, intent));
  let key = gate.effects[0]?.idempotencyKey ?? null;
  if (verdict.verdict === 'proceed') {
    key = verdict.idempotencyKey ?? key;
    const sent = c.t.world.dispatch(c.fixture.target, 1, { logicalKey: intent.logicalKey, idempotencyKey: verdict.idempotencyKey ?? null, payload: intent.payload });
    await c.client.try('settle', { effectId: verdict.effectId, state: 'committed', result: deriveProjections(intent.operation, sent.response, S8E_MAPPING) });
  }
  const receipt = readBack(c, intent, key);
  const recordIsReceipt = verdict.verdict === 'replay' && receipt !== null && verdict.result.outputMappingResult === receipt;
  return { actionId: outcome.actionId, gate: gate.decision, verdict: verdict.verdict, recordIsReceipt };
}

// A write, a write cancelled after its dispatch left but before the target received it, and a replay of the first.
function lostDispatchFixture(): S8eFixture {
  const base = s8eFixture();
  const [first, replay, cancelled] = [base.actions[0]!, base.actions[4]!, base.actions[14]!];
  return { ...base, batchId: `${base.batchId}.lost`, target: `${base.target}.lost`, actions: [first, { ...cancelled, id: 'a02', dispatchLost: true }, { ...replay, id: 'a03' }] };
}
