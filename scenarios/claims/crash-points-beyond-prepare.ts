// Every announced crash point beyond the prepare is held and looked at from a second driver: it must be where its name says.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { callPrepare, rows } from '../support.js';
import { committedRows } from '../sweep/chunks.js';
import { T0, declareParams, kxmSpec } from '../kxm/support.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';
import type { CallOutcome } from '../../harness/driver/types.js';
import type { OperationName, OpParams } from '../../shared/protocol/schemas.js';
import { awaitBlocked, changedFiles, journalFileDigests } from '../../harness/claims/held-proof.js';

/** The points this scenario holds, each with the operation that reaches it: one of them announced makes it apply. */
export const HELD_POINTS = [
  'settle.before-commit',
  'settle.after-commit',
  'run-sweep.before-commit',
  'session-sweep.before-commit',
  'session-sweep.after-commit',
  'kxm.declare.after-commit',
  'kxm.dispatch.after-commit',
  'kxm.complete.before-commit',
  'checkpoint.before',
] as const;
type HeldPoint = (typeof HELD_POINTS)[number];

export const gapPoints: Scenario[] = [
  defineScenario({
    id: 'claims.crash-points-block.beyond-prepare',
    title: 'Each announced settle, sweep, checkpoint and KXM crash point is reached and blocks where its name says: before the commit nothing shows, after it the write does',
    spec: 'effect-journal §6, §9, §12.3–§12.4, §12.11; kxm-effects-and-recovery (intent, dispatch mark, completion); ejc protocol: announced crash points block until resumed, "a point must be reached exactly where its name says"',
    tags: ['claims', 'run', 'concurrency'],
    needs: [`anyPoint:${HELD_POINTS.join(',')}`],
    description:
      'A first driver runs the operation of each announced point and is held there; a second driver on the same files reads the state meanwhile. ' +
      'Held at settle.before-commit the effect must still read prepared, at settle.after-commit committed; at run-sweep.before-commit and session-sweep.before-commit the swept rows must still be there, at session-sweep.after-commit gone; ' +
      'at kxm.declare.after-commit the intent must be listed, at kxm.dispatch.after-commit the effect dispatched, at kxm.complete.before-commit not yet completed; at checkpoint.before no file may have changed since the checkpoint was asked for. ' +
      'The look waits until /proc shows the held driver blocked (every thread asleep, no CPU time added over 40 ms; at most 500 ms), so a journal that goes on without its resume has sent its answer by then on any load and fails; a file under the journal directory (SQLite\'s -shm aside) that changed since the announcement fails too. ' +
      'A point announced but never reached, announced after the write it names is committed (or, unblocking, with the write committed while held) would make the kills the generated schedules and the kxm.* scenarios plan there prove nothing.',
    asserts: ['the operation stops at each announced point', 'while held, the driver sends nothing and no file under the journal directory changes', 'while held, a second driver sees the state the point\'s name says (before the commit: the old state; after it: the new one)'],
    async trial(t) {
      const a = await t.driver('primary');
      const b = await t.driver('rival');
      // KXM points without the kxm operations, or sweep points without sessions, are the claims.operations-match-hello finding.
      const usable = HELD_POINTS.filter((p) => t.capabilities.crashPoints.includes(p) && (!p.startsWith('kxm.') || t.capabilities.kxm === true) && (!p.startsWith('session-') || t.capabilities.sessions));
      await failedIfNotHeld(t, a, async () => {
        for (const point of usable) await HOLDS[point](t, a, b, point);
      });
    },
  }),
];

/**
 * Runs `body`; when it ends in an error after `held` sent a message while it should have been held at a crash point,
 * that is the journal going on past the point without waiting for its resume: its own bug, recorded as a failure that
 * stands on its own (the protocol violation is recorded beside it), never only as an inconclusive trial.
 */
export async function failedIfNotHeld(t: TrialContext, held: JournalClient, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    const early = held.handle.violations.find((v) => EARLY.test(v.message));
    if (early) t.failConclusively('the journal stays held at each announced crash point until resumed (it sends nothing before the resume)', 'nothing until the resume', 'a message before the resume (the trial\'s violations name it)');
    throw err;
  }
}

type Hold = (t: TrialContext, a: JournalClient, b: JournalClient, point: HeldPoint) => Promise<void>;

const HOLDS: Record<HeldPoint, Hold> = {
  // Before the checkpoint nothing of it may be written: the files read as they were when the checkpoint was asked for.
  'checkpoint.before': async (t, a, _b, point) => {
    await committedRun(t, a, t.rng.id('run'));
    const asked = journalFileDigests(a.journalDir);
    await heldLook(t, a, 'checkpoint', {}, point, () => Promise.resolve(changedFiles(asked, journalFileDigests(a.journalDir))), [], 'files under the journal directory changed since the checkpoint was asked for');
  },
  'settle.before-commit': (t, a, b, point) => settleHeld(t, a, b, point, 'prepared'),
  'settle.after-commit': (t, a, b, point) => settleHeld(t, a, b, point, 'committed'),
  'run-sweep.before-commit': async (t, a, b, point) => {
    const runId = t.rng.id('run');
    const effectId = await committedRun(t, a, runId);
    if (!t.expect(`a fresh run effect before the terminal sweep held at ${point} commits`, true, effectId !== null)) return;
    await heldLook(t, a, 'runTerminal', { runId }, point, async () => (await rows(b)).filter((r) => r.effectId === effectId).length, 1, 'rows of the swept run another driver sees');
  },
  'session-sweep.before-commit': (t, a, b, point) => sweepHeld(t, a, b, point, 1),
  'session-sweep.after-commit': (t, a, b, point) => sweepHeld(t, a, b, point, 0),
  'kxm.declare.after-commit': async (t, a, b, point) => {
    const spec = kxmSpec(t, 'payment');
    await heldLook(t, a, 'kxm.declare', declareParams(spec), point, () => kxmState(b, spec.runId), ['intent'], 'KXM effects of the run another driver lists');
  },
  'kxm.dispatch.after-commit': async (t, a, b, point) => {
    const spec = kxmSpec(t, 'payment');
    const { effectId, attemptId } = await declared(a, spec);
    await heldLook(t, a, 'kxm.dispatch', { effectId, attemptId, now: T0 }, point, () => kxmState(b, spec.runId), ['dispatched'], 'KXM effect states of the run another driver lists');
  },
  'kxm.complete.before-commit': async (t, a, b, point) => {
    const spec = kxmSpec(t, 'payment');
    const { effectId, attemptId } = await declared(a, spec);
    const dispatch = await a.op('kxm.dispatch', { effectId, attemptId, now: T0 });
    if (!t.expect('the KXM dispatch mark of a fresh intent starts the call', true, dispatch.started)) return;
    await heldLook(t, a, 'kxm.complete', { effectId, attemptId, receiptId: t.rng.id('rcpt') }, point, () => kxmState(b, spec.runId), ['dispatched'], 'KXM effect states of the run another driver lists');
  },
};

/**
 * Runs `op` on `a` until it stops at `point`, waits until the driver is proven blocked there (harness/claims/held-proof.ts),
 * requires its files unchanged since the announcement, records `look()` (another driver's reading) against `expected`,
 * then lets the operation finish. Each announced point is armed, so the rest of the operation may stop again before it answers.
 */
export async function heldLook<O extends OperationName>(t: TrialContext, a: JournalClient, op: O, params: OpParams<O>, point: string, look: () => Promise<unknown>, expected: unknown, what: string): Promise<void> {
  const held = await a.holdAt(op, params, point);
  if (!t.expect(`the ${op} stops at the announced ${point}`, 'crashpoint', held.kind)) return;
  // Read at once: a write the journal makes from here on is one it made while held (seen by its times too, whatever
  // bytes it leaves).
  const files = journalFileDigests(a.journalDir, { stat: true });
  // Looked at only once the driver is proven blocked (or waited for): a journal that goes on has sent its message by
  // then, whatever the load, and the resume below fails on it; the look never races the journal.
  const blocked = await awaitBlocked(a.handle);
  if (!wentOn(a)) {
    const changed = changedFiles(files, journalFileDigests(a.journalDir, { stat: true }));
    const name = `the driver held at ${point} sends nothing and changes none of its files until resumed`;
    if (changed.length > 0) t.failConclusively(name, 'no file under the journal directory changes while held', `changed while held: ${changed.join(', ')}`);
    else t.allow(name, 'nothing sent, no file under the journal directory changed', blocked, true);
    t.expect(`${what} while the ${op} is held at ${point}`, expected, await look());
  }
  let rest: CallOutcome<O> = held;
  while (rest.kind === 'crashpoint') rest = await rest.resume();
}

/** The driver was killed for a message it sent while it should have been held: the resume will say so. */
function wentOn(a: JournalClient): boolean {
  return a.handle.violations.some((v) => EARLY.test(v.message));
}
const EARLY = /blocked at a crash point/;

async function settleHeld(t: TrialContext, a: JournalClient, b: JournalClient, point: HeldPoint, expected: string): Promise<void> {
  const runId = t.rng.id('run');
  const verdict = await a.op('prepare', callPrepare(t, { kind: 'run', runId, nodeId: 'node-a', attempt: 1 }));
  if (!t.expect(`a fresh prepare before the settle held at ${point} proceeds`, 'proceed', verdict.verdict) || verdict.verdict !== 'proceed') return;
  const effectId = verdict.effectId;
  const settle = { effectId, state: 'committed' as const, result: { modelValue: 'ok', truncated: false, summary: 'ok', outputMappingResult: 'ok' } };
  await heldLook(t, a, 'settle', settle, point, async () => (await rows(b)).find((r) => r.effectId === effectId)?.state ?? 'absent', expected, 'the state of the effect another driver sees');
}

async function committedRun(t: TrialContext, a: JournalClient, runId: string): Promise<string | null> {
  const verdict = await a.op('prepare', callPrepare(t, { kind: 'run', runId, nodeId: 'node-a', attempt: 1 }));
  if (verdict.verdict !== 'proceed') return null;
  await a.op('settle', { effectId: verdict.effectId, state: 'committed', result: { modelValue: 'ok', truncated: false, summary: 'ok', outputMappingResult: 'ok' } });
  return verdict.effectId;
}

async function sweepHeld(t: TrialContext, a: JournalClient, b: JournalClient, point: HeldPoint, expected: number): Promise<void> {
  const sessionId = t.rng.id('sess');
  const captured = await committedRows(t, a, sessionId, 1);
  const ids = new Set(captured.map((c) => c.effectId));
  await heldLook(t, a, 'sessionSweep', { sessionId, captured }, point, async () => (await rows(b)).filter((r) => ids.has(r.effectId)).length, expected, 'captured rows another driver sees');
}

async function declared(a: JournalClient, spec: ReturnType<typeof kxmSpec>): Promise<{ effectId: string; attemptId: string }> {
  const result = await a.op('kxm.declare', declareParams(spec));
  if (result.verdict !== 'recorded') throw new Error(`kxm.declare refused a fresh intent: ${result.code}`);
  return { effectId: result.effect.effectId, attemptId: result.effect.attemptId };
}

async function kxmState(b: JournalClient, runId: string): Promise<string[]> {
  return (await b.op('kxm.list', { runId })).effects.map((e) => e.state);
}
