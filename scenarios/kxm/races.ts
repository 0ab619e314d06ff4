// KXM where a cancellation meets an effect in flight or a retry a resolution authorized, and recovery meets a process
// nobody can see: each judged by the target's own write ledger, never by what the journal answers about itself.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { crashAt, crashThenRestart, declareAndDispatch, effectOf, expectWrites, kxmSpec, perform, performAndComplete, recoverRun, T_LATE } from './support.js';

const ACTOR = 'operator@example.test';

export const kxmRaces: Scenario[] = [
  defineScenario({
    id: 'kxm.cancel.in-flight-unresolved',
    title: 'Cancellation while an effect is in flight (its result lost in a crash, or not yet back) leaves the run blocked_uncertain',
    spec: 'kxm-effects-and-recovery §Cancellation ("reconcile in-flight effects; mark cancelled only when no unresolved effect remains")',
    tags: ['kxm', 'cancellation', 'crash'],
    needs: ['kxm', 'point:kxm.complete.before-commit'],
    description:
      'A github-pr effect reaches the target and the driver is SIGKILLed before its completion commits; after the restart the run is cancelled before any recovery. ' +
      'In a second run a kv-put is dispatched and lands, and the cancellation arrives before its result is recorded. Both effects are in flight: neither run may be cancelled until the effect is reconciled or completed.',
    asserts: [
      'cancel of the crashed run answers blocked_uncertain naming its dispatched effect, and the run lists blocked_uncertain',
      'recovery records the found receipt; a second cancel then answers cancelled',
      'cancel of the live run answers blocked_uncertain naming the in-flight effect; after its completion, cancelled',
      'two physical writes, no duplicate',
    ],
    async trial(t) {
      const crashed = kxmSpec(t, 'github-pr');
      await crashThenRestart(t, crashed, 'kxm.complete.before-commit');
      const client = await t.driver();
      const lost = await effectOf(client, crashed);
      const first = await client.op('kxm.cancel', { runId: crashed.runId, actor: ACTOR, reason: 'operator abort' });
      t.expect('cancel with the crashed effect in flight', { state: 'blocked_uncertain', unresolved: [lost?.effectId] }, { state: first.state, unresolved: first.unresolvedEffectIds });
      t.expect('crashed run state as listed', 'blocked_uncertain', (await client.op('kxm.list', { runId: crashed.runId })).run.state);
      const decisions = await recoverRun(t, client, [crashed]);
      t.expect('recovery of the crashed effect', 'record_receipt', decisions[0]?.decision);
      t.expect('cancel after recovery', 'cancelled', (await client.op('kxm.cancel', { runId: crashed.runId, actor: ACTOR, reason: 'operator abort' })).state);
      const live = kxmSpec(t, 'kv-put');
      const fence = await declareAndDispatch(client, live);
      const receiptId = perform(t, live, fence.attemptId, fence.idempotencyKey);
      const racing = await client.op('kxm.cancel', { runId: live.runId, actor: ACTOR, reason: 'superseded' });
      t.expect('cancel racing the live dispatch', { state: 'blocked_uncertain', unresolved: [fence.effectId] }, { state: racing.state, unresolved: racing.unresolvedEffectIds });
      await client.op('kxm.complete', { effectId: fence.effectId, attemptId: fence.attemptId, receiptId });
      t.expect('cancel after the result is recorded', 'cancelled', (await client.op('kxm.cancel', { runId: live.runId, actor: ACTOR, reason: 'superseded' })).state);
      expectWrites(t, 2);
    },
  }),
  defineScenario({
    id: 'kxm.cancel.stops-resolution-retry',
    title: 'A retry a resolution authorizes after the cancellation was requested is a new dispatch, and is not started',
    spec: 'kxm-effects-and-recovery §Cancellation ("stop new dispatches"), §blocked_uncertain (confirm absent and retry)',
    tags: ['kxm', 'cancellation', 'resolution', 'crash'],
    needs: ['kxm', 'point:kxm.dispatch.after-commit'],
    description:
      'An unknown-class effect is SIGKILLed right after its dispatch mark (the call never left); recovery blocks it and the run is cancelled. ' +
      'An operator then confirms absence and authorizes a retry under a new attempt: the engine dispatches it through the fence, and the journal must refuse to start it because the run is being cancelled.',
    asserts: ['recovery blocks; cancel answers blocked_uncertain', 'the resolution is applied (a new planned attempt)', 'its dispatch answers started=false, run_cancelled, and the effect ends cancelled', 'a second cancel answers cancelled', 'zero physical writes'],
    async trial(t) {
      const spec = kxmSpec(t, 'deploy-script');
      await crashThenRestart(t, spec, 'kxm.dispatch.after-commit');
      const client = await t.driver();
      t.expect('recovery decision', 'blocked_uncertain', (await recoverRun(t, client, [spec]))[0]?.decision);
      t.expect('cancel with the blocked effect', 'blocked_uncertain', (await client.op('kxm.cancel', { runId: spec.runId, actor: ACTOR, reason: 'operator abort' })).state);
      const effect = await effectOf(client, spec);
      const fresh = t.rng.id('att');
      const resolved = await client.op('kxm.resolve', { effectId: effect?.effectId ?? '', action: 'confirm_absent_retry', actor: ACTOR, reason: 'provider console shows no deploy', evidence: { negativeQueryAuthoritative: true, newAttemptId: fresh } });
      t.expect('resolution applied', 'intent', resolved.state);
      const dispatch = await client.op('kxm.dispatch', { effectId: resolved.effectId, attemptId: fresh, now: T_LATE });
      // The engine does what the journal answers: a started dispatch is a call to the target.
      if (dispatch.started) await performAndComplete(t, client, spec, resolved.effectId, fresh, dispatch.idempotencyKey);
      t.expect('dispatch of the authorized retry after the cancel request', { started: false, reason: 'run_cancelled' }, { started: dispatch.started, reason: dispatch.reason });
      t.expect('effect state', 'cancelled', (await effectOf(client, spec))?.state);
      t.expect('second cancel', 'cancelled', (await client.op('kxm.cancel', { runId: spec.runId, actor: ACTOR, reason: 'operator abort' })).state);
      expectWrites(t, 0);
    },
  }),
  defineScenario({
    id: 'kxm.recovery.process-unknown',
    title: 'A process the engine cannot see is no proof of continuity: recovery queries receipts or blocks, never reattaches; attempts counted are recoveries',
    spec: 'kxm-effects-and-recovery §Crash matrix, §Remote execution ("reattach only when the same remote helper and process can prove continuity"), §blocked_uncertain ("reconciliation attempts")',
    tags: ['kxm', 'crash-matrix', 'recovery', 'crash'],
    needs: ['kxm', 'point:kxm.complete.before-commit'],
    description:
      'Three effects of one run are dispatched: a kv-put whose call never left, a github-pr that landed, a deploy-script whose call never left; the driver is SIGKILLed while recording the github-pr result. ' +
      'After the restart the engine cannot see any tool process (observation process=unknown); it recovers the run twice and counts its own reconciliation attempts.',
    asserts: [
      'recovery decisions: retry_same_key (absent), record_receipt (found), blocked_uncertain (unknown class)',
      'final states completed, completed, blocked_uncertain',
      'a second recovery pass reconciles only the blocked effect: reconciliation attempts 1, 1, 2 (the dispatch is not one)',
      'two physical writes, no duplicate',
    ],
    async trial(t) {
      const kv = kxmSpec(t, 'kv-put');
      const pr = kxmSpec(t, 'github-pr', { runId: kv.runId, slot: 1 });
      const dep = kxmSpec(t, 'deploy-script', { runId: kv.runId, slot: 2 });
      await crashAt(t, 'kxm.complete.before-commit', async (client) => {
        await declareAndDispatch(client, kv);
        const p = await declareAndDispatch(client, pr);
        await declareAndDispatch(client, dep);
        const receiptId = perform(t, pr, p.attemptId, p.idempotencyKey);
        await client.op('kxm.complete', { effectId: p.effectId, attemptId: p.attemptId, receiptId });
      });
      const client = await t.driver();
      const decisions = await recoverRun(t, client, [kv, pr, dep], { process: 'unknown' });
      t.expect('recovery decisions (kv-put, github-pr, deploy-script)', ['retry_same_key', 'record_receipt', 'blocked_uncertain'], decisions.map((d) => d.decision));
      t.expect('final states', ['completed', 'completed', 'blocked_uncertain'], [(await effectOf(client, kv))?.state, (await effectOf(client, pr))?.state, (await effectOf(client, dep))?.state]);
      // The engine's own count of its recoveries: a settled effect is not reconciled again, a blocked one is.
      t.expect('recovery decisions of a second pass', ['none', 'none', 'blocked_uncertain'], (await recoverRun(t, client, [kv, pr, dep], { process: 'unknown' })).map((d) => d.decision));
      const { effects } = await client.op('kxm.list', { runId: kv.runId });
      const attempts = [kv, pr, dep].map((s) => effects.find((e) => e.slot === s.slot)?.reconciliationAttempts);
      t.expect('reconciliation attempts recorded (recoveries of each effect while unsettled)', [1, 1, 2], attempts);
      expectWrites(t, 2);
    },
  }),
];
