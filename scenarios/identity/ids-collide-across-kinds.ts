// Identities drawn from one pool: a run and a session with the same id, a node named like a turn, and scopes whose
// fields join into the same text. Each is its own correlation (§2), so no lookup, replay or sweep may cross between them.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { defaultPrepare, defaultCall, rows, snapshotAfter, snapshotBefore } from '../support.js';
import { DEFAULT_MAPPING, deriveProjections } from '../../harness/engine/projections.js';
import { runTurn, sessionAddress, transcriptOf } from '../../harness/engine/session-engine.js';
import { proceeded } from '../../harness/engine/setup-verdict.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';
import type { ToolCall } from '../../harness/engine/model.js';
import type { EffectRow } from '../../shared/protocol/schemas.js';

const SPEC = 'effect-journal §2 (EffectCorrelation is a discriminated union: a run/node or a session/turn; EffectIdentity is the correlation without attempt, plus slot and toolId), §4 (the gate reads the rows of that correlation), §8 (a session\'s read discloses its own rows), §9 (the terminal sweep takes the run\'s committed rows; a session sweep exactly the captured ones)';
const call = (slot: number): ToolCall => defaultCall({ slot, args: { ...defaultCall().args, amount: 7 } });

interface At { readonly runId: string; readonly nodeId: string; readonly slot: number; readonly toolId: string }
interface Join { readonly name: string; readonly sep: string; readonly sweep: boolean; x(p: string): At; y(p: string): At }

const at = (runId: string, nodeId: string, slot = 0, toolId = 'http_request'): At => ({ runId, nodeId, slot, toolId });
// Each pair under its own prefix (p and the pair's number), so one pair's sweep cannot reach another's rows.
const runNode = (sep: string, i: number): Join => ({ name: `run and node joined by ${JSON.stringify(sep)}`, sep, sweep: true, x: (p) => at(`${p}${i}a${sep}b`, 'c'), y: (p) => at(`${p}${i}a`, `b${sep}c`) });

/** Scope pairs that join alike under one separator each (or none); `sweep` when the two are different runs. */
const JOINS: readonly Join[] = [
  ...[':', '/', '|', '.', '-', '_', ' ', '#', ''].map(runNode),
  // node "c:1" slot 2 and node "c" slot 1 with tool "2:…": "c:1:2:http_request" both.
  { name: 'node, slot and tool joined by ":"', sep: ':', sweep: false, x: (p) => at(`${p}n`, 'c:1', 2), y: (p) => at(`${p}n`, 'c', 1, '2:http_request') },
];

export const identityCollisions: Scenario[] = [
  defineScenario({
    id: 'identity.ids-collide-across-kinds',
    title: 'A run and a session with the same id, and a node named like a turn, stay two correlations: prepare, gate and both sweeps keep them apart',
    spec: SPEC,
    tags: ['run', 'session', 'identity', 'gate', 'retention'],
    needs: ['sessions'],
    description:
      'One id names a session and a run. The session\'s turn 1 commits slot 0 and leaves slot 1 prepared; the run\'s node "1" then prepares the same tool with the same arguments at slots 0 and 1, and its node "2" commits before the session\'s turn 2 does the same; the run\'s node "3" is left prepared. ' +
      'Every prepare is a fresh identity (proceed). The run node\'s gate sees its own two committed rows only (pass, not the session\'s unresolved row). The session read lists, discloses and captures the session\'s rows only (none of the run\'s), and its sweep deletes the captured ones; ' +
      'the run\'s rows survive it. A session row committed after the read survives the run\'s terminal sweep, which deletes the run\'s three committed rows (node "3" stays unresolved).',
    asserts: ['every prepare in the shared id proceeds', 'the gate of run node "1" passes over its own two rows', 'the session read lists, discloses and captures only session rows; its sweep leaves the run rows', 'the terminal sweep deletes the run\'s rows only'],
    async trial(t) {
      const client = await t.driver();
      const id = t.rng.id('shared');
      const first = await runTurn(t, client, id, { turn: 1, calls: [call(0), call(1)], unsettledSlots: [1] });
      const runVerdicts = [await commitRun(t, client, id, '1', 0), await commitRun(t, client, id, '1', 1), await commitRun(t, client, id, '2', 0)];
      const second = await runTurn(t, client, id, { turn: 2, calls: [call(0)] });
      // An unresolved run row under the shared id: what a session read must not take for the session's own.
      const pending = await client.op('prepare', prepareAt(t, at(id, '3', 0)));
      t.expect('prepares: session turn 1, run node "1" slots 0 and 1, run node "2", session turn 2, run node "3" (left prepared)', ['proceed', 'proceed', 'proceed', 'proceed', 'proceed', 'proceed', 'proceed'], [...first.map((v) => v.verdict), ...runVerdicts, ...second.map((v) => v.verdict), pending.verdict]);
      await snapshotBefore(t, client);
      const gate = await client.op('gate', { scope: { kind: 'run', runId: id, nodeId: '1' } });
      t.expect('gate of run node "1": decision and the slots it read', ['pass', [0, 1]], [gate.decision, gate.effects.map((e) => e.slot).sort()]);
      const runRows = new Set((await rows(client)).filter((r) => r.scope.kind === 'run' && r.scope.runId === id).map((r) => r.effectId));
      const read = await client.op('sessionRead', { sessionId: id, transcript: transcriptOf(t, id) });
      t.expect('captured by the session read', [sessionAddress(1, 0, 'http_request'), sessionAddress(2, 0, 'http_request')], read.captured.map((c) => sessionAddress(c.turn, c.slot, c.toolId)).sort());
      // §8: a session discloses its own rows; the run of the same id is another correlation, neither read nor disclosed.
      const crossed = [...read.effects.filter((e) => e.scope.kind !== 'session' || runRows.has(e.effectId)), ...read.disclosures.filter((d) => d.effectId !== undefined && runRows.has(d.effectId))];
      t.expect('run rows the session read lists or discloses', [], crossed.map((e) => e.effectId));
      await runTurn(t, client, id, { turn: 3, calls: [call(0)] });
      const swept = await client.op('sessionSweep', { sessionId: id, captured: read.captured });
      t.expect('rows the session sweep deleted', 2, swept.deleted);
      t.expect('rows left after the session sweep', ['run 1/0', 'run 1/1', 'run 2/0', 'run 3/0', 'session 1/1', 'session 3/0'], addresses(await rows(client), id));
      const terminal = await client.op('runTerminal', { runId: id });
      t.expect('rows the terminal sweep deleted', 3, terminal.deleted);
      t.expect('rows left after the terminal sweep', ['run 3/0', 'session 1/1', 'session 3/0'], addresses(await snapshotAfter(t, client), id));
    },
  }),
  defineScenario({
    id: 'identity.joined-fields-stay-apart',
    title: 'Scopes whose run, node, slot and tool fields join into the same text ("a:b"/"c" and "a"/"b:c") are distinct: no replay, gate or sweep crosses',
    spec: SPEC,
    tags: ['run', 'identity', 'gate', 'retention', 'replay'],
    needs: [],
    description:
      `For each separator a careless key uses (${JOINS.map((j) => JSON.stringify(j.sep)).join(', ')}), two scopes X and Y whose fields joined by it read the same: run "p·a·b" node "c" and run "p·a" node "b·c", and one pair where the node and slot join. ` +
      'X commits a call with a retained result; Y asks the very same call and must proceed (a fresh identity, not X\'s replay) and is left prepared. X\'s gate passes (Y\'s unresolved row is not X\'s), Y\'s refuses. ' +
      'Both commit a second call; the terminal sweep of the shorter run id deletes that run\'s committed row only.',
    asserts: ['the same call in the colliding scope proceeds', 'the gate of X passes, the gate of Y refuses', 'the terminal sweep of one run leaves the other run\'s committed rows'],
    async trial(t) {
      const client = await t.driver();
      const prefix = `${t.rng.id('j')}-`;
      const pairs = JOINS.map((j) => ({ ...j, x: j.x(prefix), y: j.y(prefix) }));
      for (const p of pairs) {
        const x = await client.op('prepare', prepareAt(t, p.x));
        await client.op('settle', { effectId: proceeded(x, `${p.name}: X`), state: 'committed', result: RESULT });
        const y = await client.op('prepare', prepareAt(t, p.y));
        t.expect(`${p.name}: the same call in Y`, 'proceed', y.verdict);
      }
      await snapshotBefore(t, client);
      for (const p of pairs) {
        const gx = await client.op('gate', { scope: { kind: 'run', runId: p.x.runId, nodeId: p.x.nodeId } });
        const gy = await client.op('gate', { scope: { kind: 'run', runId: p.y.runId, nodeId: p.y.nodeId } });
        t.expect(`${p.name}: gate decisions of X and Y`, ['pass', 'refuse'], [gx.decision, gy.decision]);
        for (const at of [p.x, p.y]) {
          const v = await client.op('prepare', prepareAt(t, { ...at, slot: at.slot + 100 }));
          await client.op('settle', { effectId: proceeded(v, `${p.name}: a second call`), state: 'committed', result: RESULT });
        }
      }
      for (const p of pairs.filter((q) => q.sweep)) {
        const shorter = p.x.runId.length < p.y.runId.length ? p.x : p.y;
        const other = shorter === p.x ? p.y : p.x;
        const before = (await rows(client)).filter((r) => r.scope.kind === 'run' && r.scope.runId === other.runId && r.state === 'committed').length;
        const swept = await client.op('runTerminal', { runId: shorter.runId });
        const after = (await rows(client)).filter((r) => r.scope.kind === 'run' && r.scope.runId === other.runId && r.state === 'committed').length;
        t.expect(`${p.name}: rows deleted by the terminal sweep of ${JSON.stringify(shorter.runId)}, and committed rows of ${JSON.stringify(other.runId)} before and after`, [1, before, before], [swept.deleted, before, after]);
      }
      await snapshotAfter(t, client);
    },
  }),
];

const RESULT = deriveProjections('http_request', '{"tail":"joined"}', DEFAULT_MAPPING);

function prepareAt(t: TrialContext, a: At) {
  const c = { ...call(a.slot), toolId: a.toolId };
  return defaultPrepare(t, a.runId, a.nodeId, c);
}

// Prepares and commits (with a retained result) the shared call at a run node; returns the prepare verdict.
async function commitRun(t: TrialContext, client: JournalClient, runId: string, nodeId: string, slot: number): Promise<string> {
  const v = await client.op('prepare', prepareAt(t, at(runId, nodeId, slot)));
  if (v.verdict === 'proceed') await client.op('settle', { effectId: v.effectId, state: 'committed', result: RESULT });
  return v.verdict === 'refuse' ? `refuse:${v.code}` : v.verdict;
}

// "run <node>/<slot>" and "session <turn>/<slot>" of the rows under `id`, sorted.
function addresses(all: readonly EffectRow[], id: string): string[] {
  return all
    .flatMap((r) => (r.scope.kind === 'run' ? (r.scope.runId === id ? [`run ${r.scope.nodeId}/${r.slot}`] : []) : r.scope.sessionId === id ? [`session ${r.scope.turn}/${r.slot}`] : []))
    .sort();
}
