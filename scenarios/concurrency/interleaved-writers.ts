// Two processes writing one journal in turns, each its own effects: neither loses the other's rows.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { defaultPrepare, isUnresolved, snapshotAfter } from '../support.js';
import { DEFAULT_MAPPING, deriveProjections } from '../../harness/engine/projections.js';
import { proceeded } from '../../harness/engine/setup-verdict.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';
import type { OpParams } from '../../shared/protocol/schemas.js';

type Prepare = OpParams<'prepare'>;

// Who writes what, in this order: every step follows a write of the other process, so a writer whose view of the
// files (an end offset, a loaded index, a whole-file image) dates from before it writes over the other's record.
const STEPS: ReadonlyArray<readonly ['a' | 'b', 'prepare' | 'settle', string]> = [
  ['a', 'prepare', 'node-a'], ['b', 'prepare', 'node-b'], ['a', 'settle', 'node-a'], ['b', 'prepare', 'node-c'],
  ['a', 'prepare', 'node-d'], ['b', 'settle', 'node-b'], ['a', 'settle', 'node-d'], ['b', 'prepare', 'node-e'],
];
const COMMITTED = ['node-a', 'node-b', 'node-d'];
const UNRESOLVED = ['node-c', 'node-e'];

export const blind3Concurrency: Scenario[] = [
  defineScenario({
    id: 'concurrency.interleaved-writers-keep-rows',
    title: 'Two processes on one journal write their own effects in turns: every row either wrote is there afterwards, in the state its writer left it',
    spec: 'effect-journal §10 (process-crash durability), §2 (EffectIdentity: two processes share one journal), §4, §9; ejc protocol: several drivers on one directory',
    tags: ['run', 'concurrency', 'durability'],
    needs: [],
    description:
      'Drivers A and B are open on the same journal directory and take turns, each write following one of the other\'s: A prepares node-a, B prepares node-b, A settles ' +
      'node-a, B prepares node-c, A prepares node-d, B settles node-b, A settles node-d, B prepares node-e. Both close, and a fresh driver reads the journal: node-a, node-b ' +
      'and node-d are committed and their re-runs replay each its own result, node-c and node-e are unresolved and their gates refuse. A journal that writes at an end ' +
      'offset it remembers, rewrites a whole file from the rows it loaded, or settles from a stale index writes over the other process\'s records.',
    asserts: [
      'every prepare proceeds and every settle commits',
      'afterwards every committed row replays its own result and its gate passes',
      'afterwards every unresolved row is there and its gate refuses',
    ],
    async trial(t) {
      const runId = t.rng.id('run');
      const a = await t.driver('primary');
      const b = await t.driver('rival');
      const clients: Record<'a' | 'b', JournalClient> = { a, b };
      const prepares = new Map<string, Prepare>();
      const ids = new Map<string, string>();
      const result = (node: string) => deriveProjections('http_request', JSON.stringify({ node }), DEFAULT_MAPPING);
      for (const [who, op, node] of STEPS) {
        if (op === 'prepare') {
          const p = defaultPrepare(t, runId, node);
          prepares.set(node, p);
          ids.set(node, proceeded(await clients[who].op('prepare', p), `${who.toUpperCase()}'s prepare of ${node}`));
        } else {
          const settled = await clients[who].op('settle', { effectId: ids.get(node)!, state: 'committed', result: result(node) });
          t.expect(`${who.toUpperCase()}'s settle of ${node}`, 'committed', settled.state);
        }
      }
      await a.close();
      await b.close();
      const c = await t.driver('primary');
      const rows = await snapshotAfter(t, c);
      const byNode = (node: string) => rows.find((r) => r.effectId === ids.get(node));
      t.expect('committed rows afterwards, with their results', COMMITTED.map((n) => [n, 'committed', true]), COMMITTED.map((n) => [n, byNode(n)?.state ?? 'missing', byNode(n)?.resultRetained ?? null]));
      t.expect('unresolved rows afterwards', UNRESOLVED.map((n) => [n, true]), UNRESOLVED.map((n) => [n, byNode(n) !== undefined && isUnresolved(byNode(n)!)]));
      for (const node of [...COMMITTED, ...UNRESOLVED]) {
        const gate = await c.op('gate', { scope: { kind: 'run', runId, nodeId: node }, attempt: 1 });
        t.expect(`gate of ${node}`, COMMITTED.includes(node) ? 'pass' : 'refuse', gate.decision);
      }
      for (const node of COMMITTED) {
        const v = await c.op('prepare', { ...prepares.get(node)!, audit: { ...prepares.get(node)!.audit, callId: t.rng.id('call') } });
        t.expect(`re-run of ${node}: verdict and the result it re-delivers`, ['replay', result(node)], [v.verdict, v.verdict === 'replay' ? v.result : null]);
      }
    },
  }),
];
