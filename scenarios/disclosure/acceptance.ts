// §12's session acceptance list: turn outcomes, history joins, legacy and negative slots, failures that keep evidence.
import { defineScenario, type Need, type Scenario } from '../../harness/scenario.js';
import { defaultCall, rows, snapshotAfter, snapshotBefore } from '../support.js';
import { resumeSession, runTurn, sessionAddress, transcriptOf } from '../../harness/engine/session-engine.js';
import { expectDisclosures, type ExpectedDisclosure } from '../disclosures.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';

const SID = 'sess-acc';
/** The wire form of §2's legacy wiring placeholders: the call id an older writer recorded instead of an engine id. */
export const LEGACY_PLACEHOLDERS = ['legacy:session', 'legacy:home', 'legacy:agent-run'] as const;
const A0 = sessionAddress(0, 0, 'http_request');

export const sessionAcceptance: Scenario[] = [
  // Every status of an exchange that did not complete (protocol.md sessionRead; §8: missing-terminal and orphan
  // exchanges disclose conservatively too).
  ...(['errored', 'aborted', 'missing_terminal', 'orphan'] as const).map((status) =>
    accept(`disclosure.${status.replace('_', '-')}-turn`, `A committed effect of ${status === 'missing_terminal' ? 'a' : 'an'} ${status.replace('_', ' ')} turn is disclosed once`, [], async (t, c) => {
      await runTurn(t, c, SID, { turn: 0, calls: [defaultCall()], status });
      await twoResumes(t, c, [`${A0}:conservative`], []);
    }),
  ),
  accept('disclosure.compacted-history-join', 'The join covers all history: an effect in a compacted completed turn is silent', [], async (t, c) => {
    await runTurn(t, c, SID, { turn: 0, calls: [defaultCall()], compacted: true });
    await runTurn(t, c, SID, { turn: 1, calls: [] });
    await runTurn(t, c, SID, { turn: 2, calls: [] });
    await twoResumes(t, c, [], []);
    t.expect('rows left after the sweep', 0, (await rows(c)).length);
  }),
  accept('disclosure.empty-final-turn', 'A completed exchange with no calls after the effect does not hide or invent disclosures', [], async (t, c) => {
    await runTurn(t, c, SID, { turn: 0, calls: [defaultCall()] });
    await runTurn(t, c, SID, { turn: 1, calls: [], status: 'completed' });
    await twoResumes(t, c, [], []);
  }),
  accept('disclosure.duplicate-call-id', 'A call id that appears twice in history is unattributable: disclosed conservatively', [], async (t, c) => {
    const out = await runTurn(t, c, SID, { turn: 0, calls: [defaultCall()] });
    const callId = out[0]!.callId;
    t.log.append({ type: 'session:turn', sessionId: SID, turn: 1, status: 'completed', compacted: false, calls: [{ callId, toolName: 'http_request' }] });
    await twoResumes(t, c, [`${A0}:conservative`], []);
  }),
  accept('disclosure.name-mismatch', 'A call id recorded under another tool name is unattributable: disclosed conservatively', [], async (t, c) => {
    // The only sighting of the call is in a completed exchange, under another name: a name-blind join would call it silent.
    const out = await runTurn(t, c, SID, { turn: 0, calls: [defaultCall()], transcriptCalls: [] });
    t.log.append({ type: 'session:turn', sessionId: SID, turn: 1, status: 'completed', compacted: false, calls: [{ callId: out[0]!.callId, toolName: 'write_file' }] });
    await twoResumes(t, c, [`${A0}:conservative`], []);
  }),
  accept('disclosure.negative-slots', 'A committed negative-slot ! command is silent; an unresolved one is disclosed', [], async (t, c) => {
    await runTurn(t, c, SID, {
      turn: 0,
      calls: [defaultCall({ slot: -1, toolId: 'shell', args: { cmd: 'ls' }, secretArgKeys: [] }), defaultCall({ slot: -2, toolId: 'shell', args: { cmd: 'rm x' }, secretArgKeys: [] })],
      unsettledSlots: [-2],
      status: 'errored',
    });
    const unresolved: ExpectedDisclosure = `${sessionAddress(0, -2, 'shell')}:unresolved`;
    await twoResumes(t, c, [unresolved], [unresolved]);
  }),
  accept('disclosure.legacy-placeholder', 'Each legacy wiring placeholder (session, home, agent-run) is disclosed once, then swept', ['seeding'], async (t, c) => {
    const seeded = LEGACY_PLACEHOLDERS.map((callId, slot) => ({ scope: { kind: 'session' as const, sessionId: SID, turn: 0 }, slot, toolId: 'http_request', tier: 3 as const, state: 'committed' as const, argsDigest: 'v5:' + '0'.repeat(64), callId, resultJson: null }));
    await c.op('seed', { rows: seeded });
    await twoResumes(t, c, LEGACY_PLACEHOLDERS.map((_, slot): ExpectedDisclosure => `${sessionAddress(0, slot, 'http_request')}:conservative`), []);
    t.expect('rows left after the sweep', 0, (await rows(c)).length);
  }),
  accept('disclosure.read-failure-keeps-evidence', 'A failed disclosure read deletes nothing; the next resume discloses', ['fault:session_read_fails'], async (t, c) => {
    await runTurn(t, c, SID, { turn: 0, calls: [defaultCall()], status: 'aborted' });
    await c.op('fault', { fault: 'session_read_fails', enabled: true });
    const failed = await resumeSession(t, c, SID);
    await c.op('fault', { fault: 'session_read_fails', enabled: false });
    t.expect('failed read answer', 'session_read_failed', failed.readError);
    t.expect('rows after the failed read', 1, (await rows(c)).length);
    await twoResumes(t, c, [`${A0}:conservative`], []);
  }),
  accept('disclosure.notice-failure-keeps-evidence', 'A notice that cannot be delivered prevents the sweep; the next resume discloses', [], async (t, c) => {
    await runTurn(t, c, SID, { turn: 0, calls: [defaultCall()], status: 'aborted' });
    await resumeSession(t, c, SID, { noticeFails: true });
    t.expect('rows after the undelivered notice', 1, (await rows(c)).length);
    await twoResumes(t, c, [`${A0}:conservative`], []);
  }),
  accept('disclosure.one-shot-unwind', 'An owned one-shot session\'s teardown sweeps its committed rows and keeps the unresolved one', [], async (t, c) => {
    await runTurn(t, c, SID, { turn: 0, calls: [defaultCall(), defaultCall({ slot: 1, target: 'slow' })], timeoutSlots: [1], status: 'errored' });
    const read = await c.op('sessionRead', { sessionId: SID, transcript: transcriptOf(t, SID) });
    const swept = await c.op('sessionSweep', { sessionId: SID, captured: read.captured });
    t.expect('teardown deleted the committed row', 1, swept.deleted);
    t.expect('rows left', [sessionAddress(0, 1, 'http_request')], (await rows(c)).map((r) => (r.scope.kind === 'session' ? sessionAddress(r.scope.turn, r.slot, r.toolId) : 'run')));
    const foreign = await c.op('sessionSweep', { sessionId: 'another-session', captured: read.captured });
    t.expect('a sweep under another session deletes nothing', 0, foreign.deleted);
  }),
];

function accept(id: string, title: string, needs: Need[], body: (t: TrialContext, c: JournalClient) => Promise<void>): Scenario {
  return defineScenario({
    id,
    title,
    spec: 'effect-journal §12 session acceptance, §8, §9',
    tags: ['session', 'acceptance', 'disclosure'],
    needs: ['sessions', ...needs],
    description: `${title}. The engine resumes the session (read → notice → sweep of the captured rows) and counts which effects each notice names.`,
    asserts: [title, 'a committed disclosure does not repeat after a successful sweep'],
    async trial(t) {
      const client = await t.driver();
      await body(t, client);
      await snapshotAfter(t, client);
    },
  });
}

// Two resumes in a row: the first must disclose `first`, the second `second`, each effect once (by address and state).
async function twoResumes(t: TrialContext, c: JournalClient, first: readonly ExpectedDisclosure[], second: readonly ExpectedDisclosure[]): Promise<void> {
  await snapshotBefore(t, c);
  const r1 = await resumeSession(t, c, SID);
  const r2 = await resumeSession(t, c, SID);
  expectDisclosures(t, 'first resume disclosures', first, r1.disclosed);
  expectDisclosures(t, 'second resume disclosures', second, r2.disclosed);
  t.check('first sweep completed', 'complete or deferred', r1.sweep?.checkpoint ?? r1.sweepError, r1.sweep !== null);
}
