// Identity classes found by journals written from the spec alone: a tier-1 key is never handed out twice, across sweeps and restarts.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { defaultCall, snapshotAfter, snapshotBefore } from '../support.js';
import { startRun } from '../../harness/engine/run-engine.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';

const call = defaultCall({ slot: 0, tier: 1, target: 'target-tier1' });
const ROUNDS = ['first driver', 'same driver, after the first run was swept', 'restarted driver, after both were swept', 'restarted driver, its second run'] as const;

export const blind2Identity: Scenario[] = [
  defineScenario({
    id: 'identity.tier1-key.never-repeats',
    title: 'Tier-1 effects of runs that follow one another each get a key no earlier effect had, after terminal sweeps and restarts too',
    spec: 'effect-journal §2 (the target idempotency key: generated once at prepare, reused verbatim only by a retry of that effect), §1, §9',
    tags: ['run', 'identity', 'tiers', 'tier1'],
    needs: [],
    description:
      'Four runs, one after another, each call the same tier-1 tool once and complete, so each terminal sweeps its committed row before the next run prepares: two on one ' +
      'driver, two on a restarted one. Every effect is its own, so every key the target sees must be new to it: a key made from something a sweep frees (a reused row id) or ' +
      'a restart resets (an in-memory counter, a process-start time) repeats an earlier effect\'s key, and the key-honouring target answers the new effect as a duplicate.',
    asserts: ['every run completes and every prepare proceeds', 'no key is handed out twice', 'four physical writes, none deduplicated'],
    async trial(t) {
      const keys: string[] = [];
      let client = await t.driver();
      for (const [i, round] of ROUNDS.entries()) {
        if (i === 2) client = await restart(t, client);
        const out = await startRun(t, client, { runId: t.rng.id('run'), nodes: [{ nodeId: 'node-a', calls: [call] }] });
        const v = out.verdicts[0]?.verdict;
        t.expect(`${round}: run status and prepare verdict`, ['completed', 'proceed'], [out.status, v?.verdict ?? null]);
        if (v?.verdict === 'proceed' && typeof v.idempotencyKey === 'string') keys.push(v.idempotencyKey);
      }
      t.expect('tier-1 keys handed out', ROUNDS.length, keys.length);
      t.expect('keys handed out that an earlier effect already had', [], keys.filter((k, i) => keys.indexOf(k) !== i));
      await snapshotBefore(t, client);
      const world = t.world.counts();
      t.expect('physical writes (none deduplicated away)', ROUNDS.length, world.physicalWrites);
      await snapshotAfter(t, client);
    },
  }),
];

// A graceful restart: whatever the journal keeps only in its process is gone, its files are not.
async function restart(t: TrialContext, client: JournalClient): Promise<JournalClient> {
  await client.close();
  return t.driver();
}
