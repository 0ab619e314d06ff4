// Crash point 10: a session turn killed with a committed effect absent from the transcript; disclosure-once.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { defaultCall, rows, snapshotAfter, snapshotBefore } from '../support.js';
import { noticesFor, resumeSession, runTurn, sessionAddress } from '../../harness/engine/session-engine.js';
import { expectDisclosures } from '../disclosures.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';

const SID = 'sess-1';
const committedSilent = sessionAddress(0, 0, 'http_request');
const unresolved = sessionAddress(0, 1, 'write_file');
const crashedTurnEffect = sessionAddress(1, 0, 'http_request');
/** The allowance for a disclosure a kill or a race may repeat: never zero, at most once per resume that read it. */
const ONCE_OR_TWICE = 'between 1 and 2 (allowed)';

export const cp10: Scenario[] = [
  session('cp10.session.disclose-once', 'A committed effect of a crashed turn is disclosed exactly once; unresolved rows on every resume', async (t) => {
    await crashedTurn(t);
    const client = await t.driver();
    await snapshotBefore(t, client);
    const first = await resumeSession(t, client, SID);
    const second = await resumeSession(t, client, SID);
    expectDisclosures(t, 'first resume disclosures', [`${unresolved}:unresolved`, `${crashedTurnEffect}:turn_incomplete`], first.disclosed);
    expectDisclosures(t, 'second resume disclosures', [`${unresolved}:unresolved`], second.disclosed);
    t.expect('first sweep deleted the two committed rows', 2, first.sweep?.deleted);
    await commonEnd(t, client);
  }),
  session('cp10.session.kill-between-notice-and-sweep', 'A kill between notice and sweep may disclose again, never zero times', async (t) => {
    await crashedTurn(t);
    t.planCrash({ kind: 'boundary', boundary: 'after-session-notice' });
    const first = await t.driver();
    await t.untilCrash(() => resumeSession(t, first, SID));
    const client = await t.driver();
    await snapshotBefore(t, client);
    await resumeSession(t, client, SID);
    const third = await resumeSession(t, client, SID);
    const n = noticesFor(t, SID, crashedTurnEffect);
    t.allow('notices naming the crashed turn\'s effect', ONCE_OR_TWICE, n, n >= 1 && n <= 2);
    expectDisclosures(t, 'third resume discloses only the unresolved row', [`${unresolved}:unresolved`], third.disclosed);
    await commonEnd(t, client);
  }),
  session('cp10.session.concurrent-resume', 'Two concurrent chat-resumes: both may disclose, the sweep deletes each row once', async (t) => {
    await crashedTurn(t);
    const a = await t.driver('primary');
    const b = await t.driver('rival');
    await snapshotBefore(t, a);
    const [ra, rb] = await Promise.all([resumeSession(t, a, SID), resumeSession(t, b, SID)]);
    t.expect('rows deleted by both sweeps together', 2, (ra.sweep?.deleted ?? 0) + (rb.sweep?.deleted ?? 0));
    const n = noticesFor(t, SID, crashedTurnEffect);
    // Which resume read first is the machine's doing: the digest records only that the count was allowed.
    t.allow('notices naming the crashed turn\'s effect', ONCE_OR_TWICE, n, n >= 1 && n <= 2);
    t.varies('disclosures');
    const third = await resumeSession(t, a, SID);
    expectDisclosures(t, 'a later resume discloses only the unresolved row', [`${unresolved}:unresolved`], third.disclosed);
    await commonEnd(t, a);
  }),
  session('cp10.session.prepare-refused', 'A session prepare of an existing identity is always refused, never replayed', async (t) => {
    const client = await t.driver();
    await runTurn(t, client, SID, { turn: 0, calls: [defaultCall({ slot: 0 }), defaultCall({ slot: 1, toolId: 'write_file', target: 'files', args: { path: '/tmp/x', append: true }, secretArgKeys: [] })], unsettledSlots: [1] });
    const again = await runTurn(t, client, SID, { turn: 0, calls: [defaultCall({ slot: 0 }), defaultCall({ slot: 1, toolId: 'write_file', target: 'files', args: { path: '/tmp/x', append: true }, secretArgKeys: [] })] });
    t.check('committed identity refused', 'refuse:*', again[0]?.verdict, again[0]?.verdict.startsWith('refuse:') ?? false);
    t.check('unresolved identity refused', 'refuse:*', again[1]?.verdict, again[1]?.verdict.startsWith('refuse:') ?? false);
    t.expect('physical writes', 1, t.world.counts().physicalWrites);
    const after = await snapshotAfter(t, client);
    t.expect('session rows holding a result', 0, after.filter((r) => r.resultRetained).length);
  }),
];

function session(id: string, title: string, trial: (t: TrialContext) => Promise<void>): Scenario {
  return defineScenario({
    id,
    title,
    spec: 'effect-journal §12.10, §8, §9, §11',
    tags: ['crash-matrix', 'session', 'disclosure'],
    needs: ['sessions'],
    description:
      'Turn 0 completes with a committed call (slot 0, silent) and a prepared-but-unsettled call (slot 1, unresolved). Turn 1 commits a call and the driver is SIGKILLed before the transcript write, so its effect is committed but absent from the transcript. Then the session is resumed (read → notice → sweep of the captured rows).',
    asserts: ['the crashed turn\'s committed effect is disclosed (turn_incomplete) and, after a successful sweep, never again', 'the unresolved row is disclosed on every resume and never swept', 'the matched committed row is silent', 'session rows never hold a result'],
    trial,
  });
}

// Leaves the journal with: t0/s0 committed (in transcript), t0/s1 prepared, t1/s0 committed (turn never completed).
async function crashedTurn(t: TrialContext): Promise<void> {
  const client = await t.driver();
  await runTurn(t, client, SID, {
    turn: 0,
    calls: [defaultCall({ slot: 0 }), defaultCall({ slot: 1, toolId: 'write_file', target: 'files', args: { path: '/tmp/notes', append: true }, secretArgKeys: [] })],
    unsettledSlots: [1],
  });
  t.planCrash({ kind: 'boundary', boundary: 'after-turn-settle' });
  await t.untilCrash(() => runTurn(t, client, SID, { turn: 1, calls: [defaultCall({ slot: 0, args: { ...defaultCall().args, amount: 7 } })] }));
}

async function commonEnd(t: TrialContext, client: JournalClient): Promise<void> {
  t.expect('notices naming the matched committed row', 0, noticesFor(t, SID, committedSilent));
  const after = await rows(client);
  t.expect('rows left: only the unresolved one', [unresolved], after.map((r) => (r.scope.kind === 'session' ? sessionAddress(r.scope.turn, r.slot, r.toolId) : 'run')));
  t.expect('session rows holding a result before the sweep', 0, (t.effectsBefore ?? []).filter((r) => r.resultRetained).length);
  await snapshotAfter(t, client);
}
