// The class recovery rows read-only and workspace-mutation, lease fencing tokens, and reattaching a still-alive process.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { crashAt, crashThenRestart, declareAndDispatch, effectOf, expectWrites, kxmLogicalKey, kxmReadKey, kxmSpec, leaseFor, observeReceipt, perform, performAndComplete, recoverRun, runEffect, T0 } from './support.js';

const LOST_RESULT = 'kxm.complete.before-commit';

export const kxmClassRows: Scenario[] = [
  defineScenario({
    id: 'kxm.recovery.read-only-retry',
    title: 'Read-only: a call killed mid-flight is simply retried (bounded), while a non-idempotent sibling blocks',
    spec: 'kxm-effects-and-recovery §Classes and automatic behavior (read-only, external-non-idempotent)',
    tags: ['kxm', 'crash-matrix', 'recovery'],
    needs: ['kxm', `point:${LOST_RESULT}`],
    description: 'A git-status read and a payment both ran; the driver is SIGKILLed while recording the read result, losing both results.',
    asserts: ['the read is retried under the same attempt and completes, no block, no resolution', 'the payment blocks and is not retried', 'the read ran twice (two calls), the payment once; no duplicate write'],
    async trial(t) {
      const read = kxmSpec(t, 'git-status');
      const pay = kxmSpec(t, 'payment', { runId: read.runId, slot: 1 });
      await crashAt(t, LOST_RESULT, async (client) => {
        const r = await declareAndDispatch(client, read);
        const p = await declareAndDispatch(client, pay);
        perform(t, pay, p.attemptId, p.idempotencyKey);
        const receiptId = perform(t, read, r.attemptId, r.idempotencyKey);
        await client.op('kxm.complete', { effectId: r.effectId, attemptId: r.attemptId, receiptId });
      });
      const client = await t.driver();
      const decisions = await recoverRun(t, client, [read, pay]);
      t.expect('recovery decisions (read, payment)', ['retry_bounded', 'blocked_uncertain'], decisions.map((d) => d.decision));
      const readEffect = await effectOf(client, read);
      t.expect('read completed by the same attempt', { state: 'completed', attemptId: read.attemptId, audit: [] }, readEffect && { state: readEffect.state, attemptId: readEffect.attemptId, audit: readEffect.audit });
      t.expect('payment state', 'blocked_uncertain', (await effectOf(client, pay))?.state);
      t.expect('target calls (first read, re-read, payment)', [1, 1, 1], [t.world.writesFor(kxmReadKey(read, 1)), t.world.writesFor(kxmReadKey(read, 2)), t.world.writesFor(kxmLogicalKey(pay))]);
      expectWrites(t, 3);
    },
  }),
  defineScenario({
    id: 'kxm.recovery.workspace-reconcile',
    title: 'Workspace mutation: a verified postcondition completes without re-running; an unverifiable one blocks',
    spec: 'kxm-effects-and-recovery §Classes and automatic behavior (workspace-mutation), §Workspace reconciliation',
    tags: ['kxm', 'crash-matrix', 'recovery', 'workspace'],
    needs: ['kxm', `point:${LOST_RESULT}`],
    description: 'A formatter and a code generator both edited the worktree; the driver is SIGKILLed while recording the formatter result.',
    asserts: ['the formatter is recorded from its verified postcondition and not re-applied', 'the generator (not comparable) blocks', 'two physical writes, no duplicate'],
    async trial(t) {
      const fmt = kxmSpec(t, 'format');
      const gen = kxmSpec(t, 'codegen', { runId: fmt.runId, slot: 1 });
      await crashAt(t, LOST_RESULT, async (client) => {
        const f = await declareAndDispatch(client, fmt);
        const g = await declareAndDispatch(client, gen);
        const receiptId = perform(t, fmt, f.attemptId, f.idempotencyKey);
        perform(t, gen, g.attemptId, g.idempotencyKey);
        await client.op('kxm.complete', { effectId: f.effectId, attemptId: f.attemptId, receiptId });
      });
      const client = await t.driver();
      const decisions = await recoverRun(t, client, [fmt, gen]);
      t.expect('recovery decisions (format, codegen)', ['record_postcondition', 'blocked_uncertain'], decisions.map((d) => d.decision));
      t.expect('final states (format, codegen)', ['completed', 'blocked_uncertain'], [(await effectOf(client, fmt))?.state, (await effectOf(client, gen))?.state]);
      expectWrites(t, 2);
    },
  }),
  defineScenario({
    id: 'kxm.lease.stale-fencing-token',
    title: 'A lease re-granted under a higher fencing token: the stale holder\'s intent is not started',
    spec: 'kxm-effects-and-recovery §Lease failure (lease identity and fencing token recorded with the intent)',
    tags: ['kxm', 'lease'],
    needs: ['kxm', 'point:kxm.declare.after-commit'],
    description: 'Holder A (token 7) is SIGKILLed after its intent; the lease goes to holder B (token 8), which completes; A restarts before expiry.',
    asserts: ['recovery of A answers lease_fenced and A is not_started', 'a fresh dispatch under token 7 is refused as lease_fenced', 'one physical write (B\'s)'],
    async trial(t) {
      const lease = leaseFor(t);
      const stale = kxmSpec(t, 'github-pr', { lease });
      await crashThenRestart(t, stale, 'kxm.declare.after-commit');
      const client = await t.driver();
      // Still inside the lease's lifetime: only the token can tell A it no longer holds it.
      await runEffect(t, client, kxmSpec(t, 'github-pr', { lease: { ...lease, fencingToken: lease.fencingToken + 1 } }), T0 + 1_000);
      const decisions = await recoverRun(t, client, [stale], { now: T0 + 2_000 });
      t.expect('recovery decision', 'lease_fenced', decisions[0]?.decision);
      t.expect('stale intent state', 'not_started', (await effectOf(client, stale))?.state);
      const again = await declareAndDispatch(client, kxmSpec(t, 'github-pr', { lease }), T0 + 3_000);
      t.expect('dispatch under the stale token', false, again.started);
      expectWrites(t, 1);
    },
  }),
  defineScenario({
    id: 'kxm.recovery.alive-reattach',
    title: 'The exact tool process is still alive after the journal restarts: reattach the same attempt',
    spec: 'kxm-effects-and-recovery §Crash matrix ("Exact process/session still alive")',
    tags: ['kxm', 'crash-matrix', 'recovery'],
    needs: ['kxm', 'point:kxm.declare.after-commit'],
    description: 'A real tool process is started for a github-pr effect; the driver is SIGKILLed on the next intent. The tool process survives.',
    asserts: ['the engine observes the same process alive', 'recovery answers reattach under the same attempt', 'the effect completes from the process result', 'one physical write, no duplicate'],
    async trial(t) {
      const spec = kxmSpec(t, 'github-pr');
      const tool = await startTool();
      try {
        const fence = { effectId: '', attemptId: '', idempotencyKey: '' };
        await crashAt(t, 'kxm.declare.after-commit', async (client) => {
          Object.assign(fence, await declareAndDispatch(client, spec));
          return runEffect(t, client, kxmSpec(t, 'kv-put'));
        }, 2);
        const client = await t.driver();
        const alive = tool.exitCode === null && tool.signalCode === null;
        t.expect('tool process alive after the journal kill', true, alive);
        const effect = await effectOf(client, spec);
        const receipt = effect ? observeReceipt(t, spec, effect) : { kind: 'not_queried' as const };
        const decision = await client.op('kxm.recover', { effectId: fence.effectId, now: T0 + 1_000, observation: { process: alive ? 'alive_same' : 'unknown', receipt } });
        t.expect('recovery decision', { decision: 'reattach', attemptId: spec.attemptId }, { decision: decision.decision, attemptId: decision.attemptId });
        if (decision.decision === 'retry_same_key') await performAndComplete(t, client, spec, fence.effectId, decision.attemptId, decision.idempotencyKey);
        // The live process finishes whatever the journal decided: its effect lands.
        await finishTool(tool);
        const receiptId = perform(t, spec, fence.attemptId, fence.idempotencyKey);
        if (decision.decision === 'reattach') await client.op('kxm.complete', { effectId: fence.effectId, attemptId: decision.attemptId, receiptId });
        t.expect('final state', 'completed', (await effectOf(client, spec))?.state);
        expectWrites(t, 1);
      } finally {
        if (tool.exitCode === null && tool.signalCode === null) tool.kill('SIGKILL');
      }
    },
  }),
];

// A real long-running tool session: it lives until told to finish on stdin.
async function startTool(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', "process.stdin.once('data', () => process.exit(0))"], { stdio: ['pipe', 'ignore', 'ignore'] });
  await once(child, 'spawn');
  return child;
}

// Tells the tool session to finish and waits for its exit, so its effect lands exactly once.
async function finishTool(tool: ChildProcess): Promise<void> {
  if (tool.exitCode !== null || tool.signalCode !== null) return;
  const exited = once(tool, 'exit');
  tool.stdin?.end('finish\n');
  await exited;
}
