// Scale for sessions: a session of more than a thousand rows whose newest turn is the one that must be disclosed. A
// session read that reads a page, a LIMIT or a batch of the oldest (or newest) rows fails.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { callPrepare, defaultCall, rows, seedRows, snapshotAfter, snapshotBefore } from '../support.js';
import { expectedDigest } from '../digest/persisted-form.js';
import { resumeSession, sessionAddress, startTurn } from '../../harness/engine/session-engine.js';
import { proceeded } from '../../harness/engine/setup-verdict.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';

/** Completed turns before the newest, and calls per turn: past 1000 and 1024 rows, where a page or LIMIT commonly stops. */
export const SESSION_TURNS = 110;
export const CALLS_PER_TURN = 10;
const SID = 'sess-long';

export const longSession: Scenario[] = [
  defineScenario({
    id: 'disclosure.scale.long-session',
    title: `A session of ${SESSION_TURNS * CALLS_PER_TURN + 2} rows discloses its newest turn, captures every committed row and sweeps them all`,
    spec: 'effect-journal §8 (resume reads the session\'s rows and discloses incomplete or unresolved effects before sweeping the exact captured rows), §9 ("There is no completed-turn-count bound"; "actual deletions are counted"), docs/protocol.md sessionRead ("captured holds every committed row of the session the read saw")',
    tags: ['session', 'disclosure', 'retention', 'scale'],
    needs: ['sessions'],
    description:
      `A session's ${SESSION_TURNS} completed turns each committed ${CALLS_PER_TURN} calls the transcript records (planted in one seed where the journal can seed rows; otherwise prepared and settled), ${SESSION_TURNS * CALLS_PER_TURN} rows in all. ` +
      'Its newest turn then commits one call and prepares another, and dies before its transcript write. The resume must read the whole session: it discloses the newest turn\'s committed call (its call id is in no transcript) and its unresolved one, ' +
      `says nothing of the completed turns' calls, captures all ${SESSION_TURNS * CALLS_PER_TURN + 1} committed rows, and its sweep deletes every one of them and keeps the unresolved row. ` +
      'A read of the first (or last) page of the session misses the newest turn or captures too few.',
    asserts: [
      'the resume discloses the newest turn\'s committed and unresolved calls, and no call of a completed turn',
      `the read captures all ${SESSION_TURNS * CALLS_PER_TURN + 1} committed rows and never the unresolved one`,
      `the sweep deletes all ${SESSION_TURNS * CALLS_PER_TURN + 1} captured rows and leaves the unresolved one`,
    ],
    async trial(t) {
      const client = await t.driver();
      await fillSession(t, client);
      const newest = SESSION_TURNS;
      // The newest turn: slot 0 settles committed, slot 1 is prepared and never dispatched; the transcript write never comes.
      await startTurn(t, client, SID, { turn: newest, calls: [defaultCall({ slot: 0 }), defaultCall({ slot: 1 })], unsettledSlots: [1] });
      await snapshotBefore(t, client);
      const committed = SESSION_TURNS * CALLS_PER_TURN + 1;
      const outcome = await resumeSession(t, client, SID);
      t.expect('the session read answers', null, outcome.readError);
      const disclosed = outcome.disclosed.map((d) => d.address).sort();
      t.expect('addresses the resume disclosed: the newest turn\'s committed and unresolved calls, nothing else', [sessionAddress(newest, 0, 'http_request'), sessionAddress(newest, 1, 'http_request')], disclosed);
      const captured = outcome.read?.captured ?? [];
      t.expect('committed rows the read captured, and the newest turn\'s among them', [committed, true], [captured.length, captured.some((c) => c.turn === newest && c.slot === 0)]);
      t.expect('rows the sweep deleted', committed, outcome.sweep?.deleted ?? outcome.sweepError);
      const left = (await snapshotAfter(t, client)).filter((r) => r.scope.kind === 'session' && r.scope.sessionId === SID);
      t.expect('rows of the session left: the unresolved call of the newest turn only', [sessionAddress(newest, 1, 'http_request')], left.map((r) => (r.scope.kind === 'session' ? sessionAddress(r.scope.turn, r.slot, r.toolId) : '')));
    },
  }),
];

// Commits every call of the completed turns and records each turn in the transcript; planted in one seed where the
// journal can seed rows (the read is what is under test, and a thousand prepare/settle pairs cost seconds).
async function fillSession(t: TrialContext, client: JournalClient): Promise<void> {
  const turns = Array.from({ length: SESSION_TURNS }, (_, turn) => ({ turn, calls: Array.from({ length: CALLS_PER_TURN }, (_, slot) => ({ slot, callId: `eng-${SID}-${turn}-${slot}-${t.rng.int(1_000_000)}` })) }));
  if (t.capabilities.seeding) {
    await seedRows(t, client, turns.flatMap(({ turn, calls }) => calls.map(({ slot, callId }) => {
      const call = defaultCall({ slot });
      return { scope: { kind: 'session' as const, sessionId: SID, turn }, slot, toolId: call.toolId, tier: call.tier, state: 'committed' as const, argsDigest: expectedDigest(call.args, call.secretArgKeys), callId, resultJson: null };
    })));
  } else {
    for (const { turn, calls } of turns) {
      for (const { slot, callId } of calls) {
        const prepare = callPrepare(t, { kind: 'session', sessionId: SID, turn }, defaultCall({ slot }));
        const v = await client.op('prepare', { ...prepare, audit: { ...prepare.audit, callId } });
        await client.op('settle', { effectId: proceeded(v, `turn ${turn} slot ${slot}`), state: 'committed', result: null });
      }
    }
  }
  for (const { turn, calls } of turns) t.log.append({ type: 'session:turn', sessionId: SID, turn, status: 'completed', compacted: false, calls: calls.map((c) => ({ callId: c.callId, toolName: 'http_request' })) });
  const planted = (await rows(client)).filter((r) => r.scope.kind === 'session' && r.scope.sessionId === SID && r.state === 'committed').length;
  t.check('committed rows of the completed turns, as planted', SESSION_TURNS * CALLS_PER_TURN, planted, planted === SESSION_TURNS * CALLS_PER_TURN);
}
