// ADR-0098 sessions at their edges: a session result never reaches the files under any column, and a sweep deletes the
// captured rows only, whichever turn a row committed after the read belongs to (earlier, same or later than the captured).
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { canary, defaultCall, rows, scanCanaries, snapshotAfter, snapshotBefore } from '../support.js';
import { resumeSession, runTurn, sessionAddress, startTurn, transcriptOf } from '../../harness/engine/session-engine.js';
import type { ToolCall } from '../../harness/engine/model.js';

const SID = 'sess-edge';

export const edgeSessions: Scenario[] = [
  defineScenario({
    id: 'erasure.session-result-never-written',
    title: 'A session result reaches no file of the journal, under any column, before or after a kill and a resume',
    spec: 'effect-journal §11 ("a session row\'s result_json is always SQL NULL; even a supplied result ... is never examined"), ADR-0098',
    tags: ['secrets', 'byte-scan', 'session'],
    needs: ['sessions'],
    description:
      'Two session turns call targets whose answers carry a canary; the engine offers each result to settle, as it does for runs. The journal\'s own listing says nothing about where bytes went, so every file under its directory is scanned after the turns, ' +
      'after a SIGKILL right after a settle, and after the resume (read, notice, sweep).',
    asserts: ['zero canary hits after the turns', 'zero canary hits after the kill', 'zero canary hits after the resume', 'no session row reports a retained result'],
    async trial(t) {
      const tokens = [canary(t), canary(t)];
      const client = await t.driver();
      await runTurn(t, client, SID, { turn: 0, calls: [marked(0, tokens[0]!)] });
      t.expect('canary hits after a completed turn', 0, await scanCanaries(t, client, tokens));
      t.planCrash({ kind: 'boundary', boundary: 'after-turn-settle' });
      await t.untilCrash(() => runTurn(t, client, SID, { turn: 1, calls: [marked(0, tokens[1]!)] }));
      const next = await t.driver();
      await snapshotBefore(t, next);
      t.expect('canary hits after the kill', 0, await scanCanaries(t, next, tokens));
      await resumeSession(t, next, SID);
      t.expect('canary hits after the resume', 0, await scanCanaries(t, next, tokens));
      const after = await snapshotAfter(t, next);
      t.expect('session rows reporting a retained result', [], after.filter((r) => r.resultRetained).map((r) => r.effectId));
    },
  }),
  defineScenario({
    id: 'retention.session-sweep.post-read-commit-any-turn',
    title: 'Rows committed after the read survive the sweep, in an earlier, the same or a later turn than the captured ones',
    spec: 'effect-journal §9 ("a new commit after the read ... survives"), §12 session acceptance (concurrent post-read commits)',
    tags: ['session', 'retention', 'sweep'],
    needs: ['sessions'],
    description:
      'Turns 0–2 each commit one call; turns 0 and 2 also dispatch a second call that settles only after the disclosure read (a turn still running elsewhere), so at the read those rows are unresolved and not captured. ' +
      'After the read they commit, and a new turn 4 commits too; then the sweep runs over what the read captured. Only the three captured rows may go.',
    asserts: ['the sweep deletes exactly the three captured rows', 'the rows committed after the read (turns 0, 2 and 4) survive'],
    async trial(t) {
      const client = await t.driver();
      const early = await startTurn(t, client, SID, { turn: 0, calls: [call(0), call(1)], deferredSlots: [1] });
      await runTurn(t, client, SID, { turn: 1, calls: [call(0)] });
      const late = await startTurn(t, client, SID, { turn: 2, calls: [call(0), call(1)], deferredSlots: [1] });
      await snapshotBefore(t, client);
      const read = await client.op('sessionRead', { sessionId: SID, transcript: transcriptOf(t, SID) });
      t.expect('captured at the read', [sessionAddress(0, 0, 'http_request'), sessionAddress(1, 0, 'http_request'), sessionAddress(2, 0, 'http_request')], read.captured.map((c) => sessionAddress(c.turn, c.slot, c.toolId)).sort());
      await early.finish(client);
      await late.finish(client);
      await runTurn(t, client, SID, { turn: 4, calls: [call(0)] });
      const swept = await client.op('sessionSweep', { sessionId: SID, captured: read.captured });
      t.expect('rows deleted', 3, swept.deleted);
      const left = (await rows(client)).map((r) => (r.scope.kind === 'session' ? sessionAddress(r.scope.turn, r.slot, r.toolId) : 'run')).sort();
      t.expect('rows left: the ones committed after the read', [sessionAddress(0, 1, 'http_request'), sessionAddress(2, 1, 'http_request'), sessionAddress(4, 0, 'http_request')], left);
      await snapshotAfter(t, client);
    },
  }),
];

function call(slot: number): ToolCall {
  return defaultCall({ slot, args: { ...defaultCall().args, amount: 40 + slot } });
}

// A call whose target answers with the canary in its first field, so even a bounded model value holds it.
function marked(slot: number, token: string): ToolCall {
  return { ...call(slot), response: { padding: 64, marker: token } };
}
