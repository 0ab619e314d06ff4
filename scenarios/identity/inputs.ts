// §2's five identities as metamorphic relations: every audit-only input varied must not change a verdict, every input
// of the EffectIdentity varied must make a fresh identity; and §13's budget re-dispatch (the attempt reset) replays.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { crashDuringRun, defaultCall, runEffectKey, snapshotAfter, snapshotBefore } from '../support.js';
import { committedRow, expectVerdict, killAndRestart, proceed, resultFor, runPrepare, type Prepare } from '../metamorphic-support.js';
import { expectPrepare, type ExistingRowView } from '../../harness/model/gate-table.js';
import { resumeRun } from '../../harness/engine/run-engine.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';

const COMMITTED: ExistingRowView = { scope: 'run', state: 'committed', resolution: null, legacyDigest: false, sameArgs: 'same', sameMapping: true, retained: true };
const UNRESOLVED: ExistingRowView = { ...COMMITTED, state: 'unresolved', retained: false };

export const metamorphicIdentity: Scenario[] = [
  defineScenario({
    id: 'identity.inputs',
    title: 'Audit-only inputs never change a verdict; every EffectIdentity input makes a fresh identity',
    spec: 'effect-journal §2 (EffectCorrelation.attempt and EffectAttemptId are audit only; EffectIdentity is scope, slot, tool), §4',
    tags: ['run', 'identity', 'metamorphic'],
    needs: [],
    description:
      'One committed effect written at node attempt 2 and one unresolved one. The same call is prepared again varying one input at a time: each audit-only input (node attempt 1 and 3, provider attempt, tool-call id, owner and fence generation) must answer as the record says (replay; refuse for the unresolved row), and so must another tier (never a second row at the identity); each identity input (another node of the run, another run with the same node id, another slot, another tool) must proceed as a fresh identity and later replay its own answer, never another identity\'s. Every answer is asked again after a SIGKILL and a restart, and each gate lists exactly its own node\'s rows.',
    asserts: [
      'an audit-only change replays the recorded result of the committed row, and is refused at the unresolved one',
      'an identity change proceeds, and after a restart replays its own result',
      'the gate of each node lists exactly the rows prepared in it, whatever their attempt',
    ],
    async trial(t) {
      let client = await t.driver();
      const runId = t.rng.id('run');
      const otherRun = `${runId}-b`;
      const base = runPrepare(t, runId, 'node-a', { correlation: { kind: 'run', runId, nodeId: 'node-a', attempt: 2 } });
      const baseId = await committedRow(client, base, resultFor('base'), 'the committed effect');
      const held = runPrepare(t, runId, 'node-held', { correlation: { kind: 'run', runId, nodeId: 'node-held', attempt: 2 } });
      await proceed(client, held, 'the unresolved effect');
      const audit = auditVariants(t);
      const askAudit = async (c: JournalClient, when: string) => {
        for (const [what, vary] of audit) {
          const v = await c.op('prepare', vary(base));
          expectVerdict(t, `${when}: the committed effect prepared again with ${what}`, expectPrepare(COMMITTED), v, resultFor('base'));
          if (v.verdict !== 'proceed') t.expect(`${when}: ${what} answers for the recorded row`, baseId, v.effectId);
          const h = await c.op('prepare', vary(held));
          expectVerdict(t, `${when}: the unresolved effect prepared again with ${what}`, expectPrepare(UNRESOLVED), h);
        }
      };
      await askAudit(client, 'before a restart');
      // The tier classifies the tool, it does not name the effect (§2): a tool reclassified between the crash and the
      // resume meets its own recorded row, never a fresh one beside it.
      for (const [p, which] of [[base, 'committed'], [held, 'unresolved']] as const) {
        const v = await client.op('prepare', { ...p, tier: p.tier === 2 ? 3 : 2, audit: { ...p.audit, callId: t.rng.id('call') } });
        t.check(`the ${which} effect prepared again under another tier`, which === 'committed' ? 'replay or refuse (not a second row)' : 'refuse (not a second row)', v.verdict, which === 'committed' ? v.verdict !== 'proceed' : v.verdict === 'refuse');
      }
      const fresh = identityVariants(runId, otherRun);
      const freshIds: string[] = [];
      for (const [what, vary] of fresh) {
        const p = { ...vary(base), audit: { ...base.audit, callId: t.rng.id('call') } };
        const v = await client.op('prepare', p);
        expectVerdict(t, `the same call at ${what}`, expectPrepare(null), v);
        if (v.verdict !== 'proceed') continue;
        freshIds.push(v.effectId);
        await client.op('settle', { effectId: v.effectId, state: 'committed', result: resultFor(what) });
      }
      t.expect('fresh identities get ids of their own', [], freshIds.filter((id) => id === baseId));
      await snapshotBefore(t, client);
      client = await killAndRestart(t, client);
      await askAudit(client, 'after a SIGKILL and restart');
      for (const [what, vary] of fresh) {
        const v = await client.op('prepare', { ...vary(base), correlation: { ...vary(base).correlation, attempt: 1 }, audit: { ...base.audit, callId: t.rng.id('call') } } as Prepare);
        expectVerdict(t, `after the restart, the call at ${what} again`, expectPrepare(COMMITTED), v, resultFor(what));
      }
      const listed = async (runIdOf: string, nodeId: string) => (await client.op('gate', { scope: { kind: 'run', runId: runIdOf, nodeId }, attempt: 1 })).effects.map((e) => `slot ${e.slot} ${e.toolId}`).sort();
      t.expect('gate of node-a lists its own rows (attempt 2 and fresh slot and tool)', ['slot 0 http_request', 'slot 0 write_file', 'slot 1 http_request'], await listed(runId, 'node-a'));
      t.expect('gate of node-b lists only the row prepared in node-b', ['slot 0 http_request'], await listed(runId, 'node-b'));
      t.expect('gate of the other run\'s node-a lists only its own row', ['slot 0 http_request'], await listed(otherRun, 'node-a'));
      t.expect('gate of node-held at attempt 1 refuses its attempt-2 row', 'refuse', (await client.op('gate', { scope: { kind: 'run', runId, nodeId: 'node-held' }, attempt: 1 })).decision);
      await snapshotAfter(t, client);
    },
  }),
  defineScenario({
    id: 'identity.cr95-redispatch',
    title: 'A budget approval re-dispatches the node from the start at attempt 1: the committed effect replays, never runs twice',
    spec: 'effect-journal §13 (CR-95), §4 ("the node-retry attempt resets to 1 both on a crash-resume and on a budget approval")',
    tags: ['run', 'identity', 'budget', 'metamorphic', 'crash-matrix'],
    needs: [],
    description:
      'A node running at node-retry attempt 3 commits its first effect; the budget pauses at the second provider egress (the path CR-95 forbids, taken by an older engine) and the process is SIGKILLed there. The approval resets the node to pending and re-dispatches it from the start at attempt 1: the gate must pass with a replay, the first call must replay its recorded result and the second must run once.',
    asserts: ['the gate passes with action replay for the first call', 'the re-dispatched first call replays', 'each effect has exactly one physical write', 'no duplicate writes'],
    async trial(t) {
      const first = defaultCall();
      const second = defaultCall({ slot: 1, toolId: 'write_file', target: 'files' });
      const run = { runId: t.rng.id('run'), nodes: [{ nodeId: 'node-a', calls: [first, second], originalAttempt: 3 }] };
      await crashDuringRun(t, run, { kind: 'boundary', boundary: 'after-tool-result', occurrence: 1 });
      const client = await t.driver();
      await snapshotBefore(t, client);
      const out = await resumeRun(t, client, run);
      t.expect('gate decision on the re-dispatch', 'pass', out.gates[0]?.decision);
      t.expect('gate action for the committed first call', ['replay'], (out.gates[0]?.effects ?? []).map((e) => e.action));
      t.expect('re-dispatched verdicts', ['replay', 'proceed'], out.verdicts.map((v) => v.verdict.verdict));
      t.expect('writes of the first call', 1, t.world.writesFor(runEffectKey(run, 'node-a', first)));
      t.expect('writes of the second call', 1, t.world.writesFor(runEffectKey(run, 'node-a', second)));
      t.expect('duplicate writes', 0, t.world.counts().duplicateWrites);
      await snapshotAfter(t, client);
    },
  }),
];

type Vary = (p: Prepare) => Prepare;

// Inputs §2 makes audit only: none of them may change what a prepare of a recorded identity answers.
function auditVariants(t: TrialContext): Array<[string, Vary]> {
  const attempt = (n: number): Vary => (p) => ({ ...p, correlation: { ...p.correlation, attempt: n } as Prepare['correlation'] });
  return [
    ['node attempt 1 (a resume resets it)', attempt(1)],
    ['node attempt 3', attempt(3)],
    ['provider attempt 4', (p) => ({ ...p, audit: { ...p.audit, providerAttempt: 4 } })],
    ['another tool-call id', (p) => ({ ...p, audit: { ...p.audit, callId: t.rng.id('call') } })],
    ['another owner and fence generation', (p) => ({ ...p, audit: { ...p.audit, ownerId: 'engine-other-owner', generation: 7 } })],
  ];
}

// Inputs that make the EffectIdentity: each one changed is another effect.
function identityVariants(runId: string, otherRun: string): Array<[string, Vary]> {
  const at = (r: string, nodeId: string): Vary => (p) => ({ ...p, correlation: { kind: 'run', runId: r, nodeId, attempt: 1 } });
  return [
    ['another node of the run', at(runId, 'node-b')],
    ['another run with the same node id', at(otherRun, 'node-a')],
    ['another slot', (p) => ({ ...p, slot: 1 })],
    ['another tool at the slot', (p) => ({ ...p, toolId: 'write_file' })],
  ];
}
