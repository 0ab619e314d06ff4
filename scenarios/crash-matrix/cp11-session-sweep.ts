// Crash point 11 (sessions): the sweep deletes exactly the captured rows, atomically, and never inside an outer transaction.
import { defineScenario, type Need, type Scenario } from '../../harness/scenario.js';
import { callPrepare, defaultCall, rows, snapshotAfter, snapshotBefore } from '../support.js';
import { captured, runTurn, sessionAddress, transcriptOf } from '../../harness/engine/session-engine.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';
import type { CapturedRow, EffectRow } from '../../shared/protocol/schemas.js';
import { chunkTrials, committedRows, noSecondChunk } from '../sweep/chunks.js';
import { CrashInjected } from '../../harness/engine/crash-plan.js';
import { proceeded } from '../../harness/engine/setup-verdict.js';

const SID = 'sess-sweep';

export const cp11session: Scenario[] = [
  sweep('cp11.session-sweep.post-read-commit', 'A commit after the read survives the sweep', [], async (t, client) => {
    const read = await client.op('sessionRead', { sessionId: SID, transcript: transcriptOf(t, SID) });
    await runTurn(t, client, SID, { turn: 5, calls: [defaultCall({ slot: 0 })] });
    const result = await client.op('sessionSweep', { sessionId: SID, captured: read.captured });
    t.expect('rows deleted', 3, result.deleted);
    t.expect('rows left', [sessionAddress(5, 0, 'http_request')], addresses(await rows(client)));
  }),
  sweep('cp11.session-sweep.changed-state', 'A captured id whose row is not committed survives', [], async (t, client) => {
    const all = await rows(client);
    const unresolved = await prepareOnly(t, client, 6);
    const forged: CapturedRow[] = [...capturedOf(all), { ...captured(unresolved.effectId, SID, 6, 0, 'http_request') }];
    const result = await client.op('sessionSweep', { sessionId: SID, captured: forged });
    t.expect('rows deleted', 3, result.deleted);
    t.expect('rows left', [sessionAddress(6, 0, 'http_request')], addresses(await rows(client)));
  }),
  sweep('cp11.session-sweep.id-reused', 'A captured id now standing at another address survives', [], async (t, client) => {
    const all = await rows(client);
    const target = all[0]!;
    const turn = target.scope.kind === 'session' ? target.scope.turn : 0;
    // The same physical id, captured at an address it no longer (or never) had: the sweep must re-check the address.
    const forged = [captured(target.effectId, SID, turn + 100, target.slot, target.toolId)];
    const result = await client.op('sessionSweep', { sessionId: SID, captured: forged });
    t.expect('rows deleted', 0, result.deleted);
    t.expect('rows left', 3, (await rows(client)).length);
  }),
  sweep('cp11.session-sweep.outer-transaction', 'A sweep inside an outer transaction is refused', ['outerTransactionProbe'], async (t, client) => {
    const all = await rows(client);
    const result = await client.try('sessionSweep', { sessionId: SID, captured: capturedOf(all), insideOuterTransaction: true });
    t.expect('sweep answer', 'outer_transaction', result.ok ? 'deleted' : result.code);
    t.expect('rows left', 3, (await rows(client)).length);
  }),
  sweep('cp11.session-sweep.chunk-failure-rolls-back', 'A failure after the first chunk rolls every chunk back', ['fault:sweep_fails_after_first_chunk'], async (t, client) => {
    const tried: number[] = [];
    for (const n of chunkTrials(t.capabilities)) {
      const all = await committedRows(t, client, SID, n);
      tried.push(all.length);
      await client.op('fault', { fault: 'sweep_fails_after_first_chunk', enabled: true });
      const result = await client.try('sessionSweep', { sessionId: SID, captured: all });
      await client.op('fault', { fault: 'sweep_fails_after_first_chunk', enabled: false });
      // A sweep that fit in one chunk never reached the fault: grow it (unless the chunk size was announced).
      if (result.ok) continue;
      t.expect('sweep answer', 'sweep_failed', result.code);
      t.expect('rows left', all.length, (await rows(client)).length);
      return;
    }
    noSecondChunk(t, 'the injected failure after its first chunk', tried);
  }),
  sweep('cp11.session-sweep.kill-between-chunks', 'A kill between chunks leaves every captured row', ['point:session-sweep.between-chunks'], async (t, client) => {
    const tried: number[] = [];
    for (const n of chunkTrials(t.capabilities)) {
      const all = await committedRows(t, client, SID, n);
      tried.push(all.length);
      const held = await client.holdAt('sessionSweep', { sessionId: SID, captured: all }, 'session-sweep.between-chunks');
      if (held.kind !== 'crashpoint') continue;
      // Planned once the point is reached: a sweep that never passes it is the failure recorded below, not a missed kill.
      t.planCrash({ kind: 'point', point: 'session-sweep.between-chunks' });
      await t.untilCrash(async () => {
        await t.kill(client, 'point:session-sweep.between-chunks');
        throw new CrashInjected('point:session-sweep.between-chunks');
      });
      const fresh = await t.driver();
      t.expect('rows left after the kill', all.length, (await rows(fresh)).length);
      const result = await fresh.op('sessionSweep', { sessionId: SID, captured: all });
      t.expect('a repeated sweep deletes every captured row', all.length, result.deleted);
      return fresh;
    }
    noSecondChunk(t, 'its between-chunks point', tried);
    return client;
  }),
];

type Body = (t: TrialContext, client: JournalClient) => Promise<JournalClient | void>;

function sweep(id: string, title: string, needs: Need[], body: Body): Scenario {
  return defineScenario({
    id,
    title,
    spec: 'effect-journal §12.11, §9',
    tags: ['crash-matrix', 'session', 'retention', 'sweep'],
    needs: ['sessions', ...needs],
    description:
      'Three turns each commit one effect; then the session sweep is driven with captured rows as the case requires. A case that needs several chunks first commits more rows than the journal\'s announced `sweepChunkSize`, or, when none is announced, doubles the rows (2, 4, 8, …) until the sweep shows a second chunk.',
    asserts: [title],
    async trial(t) {
      const client = await t.driver();
      for (const turn of [0, 1, 2]) await runTurn(t, client, SID, { turn, calls: [defaultCall({ slot: 0 })] });
      await snapshotBefore(t, client);
      const last = (await body(t, client)) ?? client;
      await snapshotAfter(t, last);
    },
  });
}

async function prepareOnly(t: TrialContext, client: JournalClient, turn: number): Promise<{ effectId: string }> {
  const verdict = await client.op('prepare', callPrepare(t, { kind: 'session', sessionId: SID, turn }));
  return { effectId: proceeded(verdict, `a session effect at turn ${turn}`) };
}

function capturedOf(all: readonly EffectRow[]): CapturedRow[] {
  return all.filter((r) => r.state === 'committed' && r.scope.kind === 'session').map((r) => captured(r.effectId, SID, r.scope.kind === 'session' ? r.scope.turn : 0, r.slot, r.toolId));
}

function addresses(all: readonly EffectRow[]): string[] {
  return all.map((r) => (r.scope.kind === 'session' ? sessionAddress(r.scope.turn, r.slot, r.toolId) : 'run')).sort();
}
