// Identity classes found by journals written from the spec alone: a tier-1 key belongs to one effect, not to its args.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { defaultCall, snapshotAfter, snapshotBefore } from '../support.js';
import { startRun } from '../../harness/engine/run-engine.js';

const call = (slot: number) => defaultCall({ slot, tier: 1, target: 'target-tier1' });

export const blindIdentity: Scenario[] = [
  defineScenario({
    id: 'identity.tier1-key.equal-args-distinct',
    title: 'Three tier-1 effects with the same arguments get three keys, and the target performs all three',
    spec: 'effect-journal §2 (the target idempotency key: generated once at prepare, never derived from model output), §1',
    tags: ['run', 'identity', 'tiers', 'tier1'],
    needs: [],
    description:
      'One run: node A calls the same tier-1 tool with identical arguments at slots 0 and 1 (two reminders), node B once more. Each is its own ' +
      'effect identity, so each key handed to the target must be its own: a key derived from the arguments makes the key-honouring target ' +
      'deduplicate the second and third away.',
    asserts: ['every prepare proceeds', 'the keys are pairwise distinct', 'three physical writes, none deduplicated'],
    async trial(t) {
      const run = { runId: t.rng.id('run'), nodes: [{ nodeId: 'node-a', calls: [call(0), call(1)] }, { nodeId: 'node-b', calls: [call(0)] }] };
      const client = await t.driver();
      const out = await startRun(t, client, run);
      t.expect('run status', 'completed', out.status);
      t.expect('prepare verdicts', ['proceed', 'proceed', 'proceed'], out.verdicts.map((v) => v.verdict.verdict));
      const keys = out.verdicts.map((v) => (v.verdict.verdict === 'proceed' ? v.verdict.idempotencyKey ?? null : null)).filter((k): k is string => k !== null);
      t.expect('keys handed to the target that another effect also holds', [], keys.filter((k, i) => keys.indexOf(k) !== i));
      await snapshotBefore(t, client);
      t.expect('physical writes', 3, t.world.counts().physicalWrites);
      await snapshotAfter(t, client);
    },
  }),
];
