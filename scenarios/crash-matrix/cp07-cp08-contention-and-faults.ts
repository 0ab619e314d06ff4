// Crash points 7 and 8: two processes preparing one identity, and a settle write that fails.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { defaultPrepare, isUnresolved, nodeRows, singleNodeRun, snapshotAfter, snapshotBefore } from '../support.js';
import { noteRefusalCode } from '../metamorphic-support.js';
import { resumeRun, startRun } from '../../harness/engine/run-engine.js';
import { setTimeout as delay } from 'node:timers/promises';
import type { CallOutcome } from '../../harness/driver/types.js';
import type { OperationName, OpParams, OpResult, RefusalCode } from '../../shared/protocol/schemas.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';

/** Rounds of cp07.concurrent-prepare.many-races: each costs two prepares, and each is one more chance at the window. */
const RACES = 200;
/** Driver processes in each round of it: every pair of them is one more race per round. */
const RIVALS = 4;

export const cp07cp08: Scenario[] = [
  defineScenario({
    id: 'cp07.concurrent-prepare.race',
    title: 'Two driver processes prepare the same identity at once',
    spec: 'effect-journal §12.7, §2 EffectIdentity',
    tags: ['crash-matrix', 'run', 'concurrency'],
    needs: [],
    description: 'Two separate driver processes on the same journal files send the same prepare concurrently.',
    asserts: ['exactly one proceeds', 'the other is refused (usually duplicate_identity or unresolved_prior_effect; the code is informational)', 'at most one physical write'],
    async trial(t) {
      const a = await t.driver('primary');
      const b = await t.driver('rival');
      const params = prepareParams(t);
      const [va, vb] = await Promise.all([a.op('prepare', params), b.op('prepare', params)]);
      const verdicts = [va.verdict, vb.verdict].sort();
      t.expect('verdicts of the two processes', ['proceed', 'refuse'], verdicts);
      const refused = [va, vb].find((v) => v.verdict === 'refuse');
      const code = refused?.verdict === 'refuse' ? refused.code : null;
      if (code !== null) noteRefusalCode(t, 'the refused prepare', [{ verdict: 'refuse', codes: ANOTHER_ATTEMPT }], code);
      const proceeded = [va, vb].filter((v) => v.verdict === 'proceed');
      for (const _ of proceeded) t.world.dispatch('payments', 3, { logicalKey: 'race/0/http_request', idempotencyKey: 'k', payload: '{}' });
      t.check('physical writes', '<= 1', t.world.counts().physicalWrites, t.world.counts().physicalWrites <= 1);
      const after = await snapshotAfter(t, a);
      t.expect('rows for the identity', 1, after.length);
    },
  }),
  defineScenario({
    id: 'cp07.concurrent-prepare.many-races',
    title: `${RIVALS} driver processes race ${RACES} times, each time preparing one fresh identity at the same moment`,
    spec: 'effect-journal §12.7, §2 EffectIdentity ("a duplicate identity is refused")',
    tags: ['crash-matrix', 'run', 'concurrency'],
    needs: [],
    description:
      `cp07.concurrent-prepare.race, ${RACES} times over and with ${RIVALS} processes: each round sends the same prepare of a fresh identity to ${RIVALS} driver processes on the same files at once. ` +
      'A journal whose lookup and insert are two transactions (or whose identity index is not unique) loses only when a rival looks up between them, a window one race rarely hits and many races hit. ' +
      'Every round must end with exactly one proceed and the other prepares refused, and one row per identity.',
    asserts: [`in every round exactly one of the ${RIVALS} prepares proceeds and the others are refused`, 'one row per identity'],
    async trial(t) {
      const drivers: JournalClient[] = [];
      for (let i = 0; i < RIVALS; i++) drivers.push(await t.driver(i === 0 ? 'primary' : 'rival'));
      const runId = t.rng.id('run');
      const lost: string[] = [];
      const codes = new Set<RefusalCode>();
      // Stops at the first round lost: it has made the point.
      for (let round = 0; round < RACES && lost.length === 0; round++) {
        const params = defaultPrepare(t, runId, `node-${round}`);
        const verdicts = await Promise.all(drivers.map((d) => d.op('prepare', params)));
        const proceeds = verdicts.filter((v) => v.verdict === 'proceed').length;
        if (proceeds !== 1) lost.push(`round ${round + 1} (node-${round}): ${proceeds} of ${RIVALS} prepares proceeded`);
        for (const v of verdicts) if (v.verdict === 'refuse') codes.add(v.code);
      }
      t.expect('rounds that did not end in exactly one proceed', [], lost);
      for (const code of [...codes].sort()) noteRefusalCode(t, 'a refused prepare', [{ verdict: 'refuse', codes: ANOTHER_ATTEMPT }], code);
      const after = (await snapshotAfter(t, drivers[0]!)).filter((r) => r.scope.kind === 'run' && r.scope.runId === runId);
      const perIdentity = new Map<string, number>();
      for (const r of after) if (r.scope.kind === 'run') perIdentity.set(r.scope.nodeId, (perIdentity.get(r.scope.nodeId) ?? 0) + 1);
      t.expect('identities with more than one row', [], [...perIdentity].filter(([, n]) => n > 1).map(([node]) => node));
    },
  }),
  defineScenario({
    id: 'cp07.concurrent-prepare.killed-holder',
    title: 'One process is killed while holding its prepare; the other then prepares the same identity',
    spec: 'effect-journal §12.7',
    tags: ['crash-matrix', 'run', 'concurrency'],
    needs: ['point:prepare.before-commit'],
    description: 'Driver A stops at prepare.before-commit (inside its transaction); driver B prepares the same identity; A is SIGKILLed; a restarted A prepares again.',
    asserts: ['exactly one prepare proceeds across all three', 'the other is refused (usually duplicate_identity or unresolved_prior_effect; the code is informational)', 'at most one physical write'],
    async trial(t) {
      const params = prepareParams(t);
      const a = await t.driver('primary');
      const b = await t.driver('rival');
      t.planCrash({ kind: 'point', point: 'prepare.before-commit', driver: 'primary' });
      const held = await a.holdAt('prepare', params, 'prepare.before-commit');
      if (held.kind !== 'crashpoint') {
        t.inconclusiveReason = 'driver A never stopped at prepare.before-commit';
        return;
      }
      const pendingB = b.op('prepare', params);
      await t.kill(a, 'point:prepare.before-commit');
      const vb = await pendingB;
      const restarted = await t.driver('primary');
      const vc = await restarted.op('prepare', params);
      await expectOneAttempt(t, [vb, vc], restarted, params);
    },
  }),
  defineScenario({
    id: 'cp07.concurrent-prepare.interleaved',
    title: 'Two processes prepare one identity, both past their checks before either commits',
    spec: 'effect-journal §12.7, §2 EffectIdentity',
    tags: ['crash-matrix', 'run', 'concurrency'],
    needs: ['point:prepare.before-commit'],
    description:
      'The race of cp07.concurrent-prepare.race, forced instead of hoped for. Driver A stops at prepare.before-commit; driver B then prepares the same identity. ' +
      'A journal without a cross-process lock lets B reach the same point too: B commits first, then A, so both commits follow both checks. ' +
      'A journal that locks holds B until A commits (ejc gives B a bounded time to reach the point, then lets A go). No kill.',
    asserts: ['exactly one prepare proceeds', 'the other is refused (usually duplicate_identity or unresolved_prior_effect; the code is informational)', 'one row for the identity'],
    async trial(t) {
      const params = prepareParams(t);
      const a = await t.driver('primary');
      const b = await t.driver('rival');
      // B's window scales with how fast B answers right now, so a loaded machine gets a longer one.
      const asked = performance.now();
      await b.op('listEffects', {});
      const window = Math.min(INTERLEAVE_WINDOW_MAX_MS, INTERLEAVE_WINDOW_MIN_MS + 20 * (performance.now() - asked));
      const heldA = await a.holdAt('prepare', params, 'prepare.before-commit');
      if (heldA.kind !== 'crashpoint') {
        t.inconclusiveReason = 'driver A never stopped at prepare.before-commit';
        return;
      }
      const pendingB = b.holdAt('prepare', params, 'prepare.before-commit');
      // Which branch ran depends on the journal's locking and on the machine's load, so it never enters the outcome:
      // every branch must end in the same verdicts.
      const early = await Promise.race([pendingB, delay(window).then(() => null)]);
      let vb: CallOutcome<'prepare'>;
      let va: CallOutcome<'prepare'>;
      if (early !== null && early.kind === 'crashpoint') {
        vb = await finish(early);
        va = await finish(heldA);
      } else {
        va = await finish(heldA);
        vb = await finish(early ?? (await pendingB));
      }
      // A journal error is neither verdict: it fails both counts.
      await expectOneAttempt(t, [va, vb].map((o) => (o.kind === 'result' ? o.result : null)), a, params);
    },
  }),
  defineScenario({
    id: 'cp08.settle-write-fails',
    title: 'The settle write fails: the node fails non-retryably and the row stays prepared',
    spec: 'effect-journal §12.8, §7 step 4',
    tags: ['crash-matrix', 'run', 'fault'],
    needs: ['fault:settle_write_fails'],
    description: 'The journal is told to fail its settle write; the engine must not retry, and a later resume must refuse.',
    asserts: ['the run fails with effect_needs_attention', 'the row stays prepared (unresolved)', 'the resume gate refuses', 'one physical write, no retry'],
    async trial(t) {
      const run = singleNodeRun(t);
      const first = await t.driver();
      await first.op('fault', { fault: 'settle_write_fails', enabled: true });
      const out = await startRun(t, first, run);
      t.expect('run error code', 'effect_needs_attention', out.errorCode);
      await first.close();
      const client = await t.driver();
      const before = await snapshotBefore(t, client);
      t.expect('row state after the failed settle', 'prepared', nodeRows(before, run.runId, 'node-a')[0]?.state);
      const resumed = await resumeRun(t, client, run);
      t.expect('resume gate decision', 'refuse', resumed.gates[0]?.decision);
      t.expect('physical writes', 1, t.world.counts().physicalWrites);
      t.expect('dispatch attempts', 1, t.world.counts().dispatchAttempts);
      const after = await snapshotAfter(t, client);
      t.expect('row still unresolved', true, isUnresolved(nodeRows(after, run.runId, 'node-a')[0]));
    },
  }),
];

// Both codes say "another attempt of this effect exists" (§2): a lost race, or the unresolved row that holds the identity.
const ANOTHER_ATTEMPT: readonly RefusalCode[] = ['duplicate_identity', 'unresolved_prior_effect'];

// How long B gets to reach prepare.before-commit while A holds there (a journal that locks keeps B waiting past it):
// a floor plus twenty of B's current round trips, capped.
const INTERLEAVE_WINDOW_MIN_MS = 300;
const INTERLEAVE_WINDOW_MAX_MS = 5_000;

// Resumes an outcome through any further announced points to its result or error.
async function finish<O extends OperationName>(outcome: CallOutcome<O>): Promise<CallOutcome<O>> {
  let current = outcome;
  while (current.kind === 'crashpoint') current = await current.resume();
  return current;
}

// Of prepares of one identity, exactly one proceeded, the other was refused as another attempt, and one row holds it.
async function expectOneAttempt(t: TrialContext, verdicts: ReadonlyArray<OpResult<'prepare'> | null>, client: JournalClient, params: OpParams<'prepare'>): Promise<void> {
  t.expect('prepares that proceed', 1, verdicts.filter((v) => v?.verdict === 'proceed').length);
  const codes = verdicts.flatMap((v) => (v?.verdict === 'refuse' ? [v.code] : []));
  t.expect('prepares refused', 1, codes.length);
  for (const code of codes) noteRefusalCode(t, 'the refused prepare', [{ verdict: 'refuse', codes: ANOTHER_ATTEMPT }], code);
  const after = await snapshotAfter(t, client);
  const runId = params.correlation.kind === 'run' ? params.correlation.runId : '';
  t.expect('rows for the identity', 1, after.filter((r) => r.scope.kind === 'run' && r.scope.runId === runId).length);
}

function prepareParams(t: TrialContext): OpParams<'prepare'> {
  return defaultPrepare(t, t.rng.id('run'), 'node-a');
}
