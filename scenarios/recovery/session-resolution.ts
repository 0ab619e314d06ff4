// An operator resolving a session's unresolved rows: the resolutions outlive a SIGKILL.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { defaultCall, rows, snapshotAfter, snapshotBefore } from '../support.js';
import { runTurn, transcriptOf } from '../../harness/engine/session-engine.js';
import { killAndRestart } from '../metamorphic-support.js';
import { resolutionIn } from './contract-points.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';
import type { EffectRow } from '../../shared/protocol/schemas.js';

export const sessionResolution: Scenario[] = [
  defineScenario({
    id: 'recovery.session-resolution',
    title: 'An operator resolves a session\'s unresolved rows as accepted and discarded: the resolutions, with actor and time, survive a SIGKILL',
    spec: 'effect-journal §8 ("The resolution is written to the row with the actor and a timestamp"; "Unresolved rows are disclosed on later resumes until resolved"), §6, §10',
    tags: ['session', 'state-machine', 'disclosure'],
    needs: ['sessions', 'resolution'],
    description:
      'A session\'s turn 1 prepares two effects that never settle (slots 0 and 1); a resume discloses both as unresolved. An operator resolves slot 0 accepted and slot 1 discarded; the driver is SIGKILLed and a fresh one opens the journal. ' +
      'Both rows still carry their decision, actor and the time of the resolve call. What a later resume discloses of a resolved row is left open: §8 stops requiring the disclosure once a row is resolved, while §9 still counts its state (prepared, needs_attention) as unresolved.',
    asserts: ['both rows are disclosed as unresolved before the resolution', 'each resolution is recorded with its decision, actor and the time of the resolve call, and survives a SIGKILL'],
    async trial(t) {
      let client = await t.driver();
      const sessionId = t.rng.id('session');
      await runTurn(t, client, sessionId, { turn: 1, calls: [defaultCall({ slot: 0 }), defaultCall({ slot: 1 })], unsettledSlots: [0, 1] });
      const [zero, one] = await sessionRows(client, sessionId);
      t.expect('the session\'s rows', [0, 1], [zero?.slot, one?.slot]);
      if (!zero || !one) return;
      t.expect('disclosed before the resolution', ['unresolved', 'unresolved'], await disclosed(t, client, sessionId, [zero, one]));
      const during = { from: Date.now() };
      const ra = await client.op('resolve', { effectId: zero.effectId, decision: 'accepted', actor: 'operator@example' });
      const rb = await client.op('resolve', { effectId: one.effectId, decision: 'discarded', actor: 'operator@example' });
      const call = { ...during, to: Date.now() };
      t.expect('recorded resolutions', ['accepted:operator@example:time', 'discarded:operator@example:time'], [ra, rb].map((r) => resolutionIn(r, call)));
      await snapshotBefore(t, client);
      client = await killAndRestart(t, client);
      const listed = (await client.op('listEffects', {})).effects;
      t.expect('resolutions after a SIGKILL and restart', ['accepted:operator@example:time', 'discarded:operator@example:time'], [zero, one].map((r) => resolutionIn(listed.find((x) => x.effectId === r.effectId), call)));
      await snapshotAfter(t, client);
    },
  }),
];

async function sessionRows(client: JournalClient, sessionId: string): Promise<EffectRow[]> {
  return (await rows(client)).filter((r) => r.scope.kind === 'session' && r.scope.sessionId === sessionId).sort((a, b) => a.slot - b.slot);
}

// The reason a resume gives for each row (by id, or by its address), or "silent".
async function disclosed(t: TrialContext, client: JournalClient, sessionId: string, of: readonly EffectRow[]): Promise<string[]> {
  const read = await client.op('sessionRead', { sessionId, transcript: transcriptOf(t, sessionId) });
  return of.map((row) => {
    const turn = row.scope.kind === 'session' ? row.scope.turn : -1;
    const d = read.disclosures.find((x) => x.effectId === row.effectId || (x.effectId === undefined && x.scope?.turn === turn && x.slot === row.slot && x.toolId === row.toolId));
    return d?.reason ?? 'silent';
  });
}
