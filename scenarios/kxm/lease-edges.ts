// The KXM lease fence at its edges: the lease (not the tool or the run) is what a fencing token fences, and expiry is an
// instant: an intent dispatched or recovered exactly at expiresAt does not start.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { crashThenRestart, declareAndDispatch, effectOf, expectWrites, kxmSpec, leaseFor, LEASE_MS, recoverRun, runEffect, T0 } from './support.js';

const SPEC = 'kxm-effects-and-recovery §Lease failure ("a shared mutable operation records lease identity and fencing token with its dispatch intent. If the lease expires before dispatch, the operation is not started")';

export const edgeKxm: Scenario[] = [
  defineScenario({
    id: 'kxm.lease.fence-spans-tools-and-runs',
    title: 'A lease re-granted under a higher token fences the stale holder whatever tool or run either holder uses',
    spec: SPEC,
    tags: ['kxm', 'lease'],
    needs: ['kxm', 'point:kxm.declare.after-commit'],
    description:
      'Holder A (token 7) records a github-pr intent and is SIGKILLed; the same lease goes to holder B (token 8), which runs kv-put in another run and completes. A restarts within the lease\'s lifetime: ' +
      'its recovery, and a fresh dispatch of a third tool under token 7, must be fenced. Only B\'s write lands.',
    asserts: ['recovery of A answers lease_fenced and A is not_started', 'a dispatch of another tool under token 7 is refused as lease_fenced', 'one physical write (B\'s)'],
    async trial(t) {
      const lease = leaseFor(t);
      const stale = kxmSpec(t, 'github-pr', { lease });
      await crashThenRestart(t, stale, 'kxm.declare.after-commit');
      const client = await t.driver();
      await runEffect(t, client, kxmSpec(t, 'kv-put', { lease: { ...lease, fencingToken: lease.fencingToken + 1 } }), T0 + 1_000);
      const decisions = await recoverRun(t, client, [stale], { now: T0 + 2_000 });
      t.expect('recovery decision of the stale github-pr intent', 'lease_fenced', decisions[0]?.decision);
      t.expect('stale intent state', 'not_started', (await effectOf(client, stale))?.state);
      const again = await declareAndDispatch(client, kxmSpec(t, 'deploy-script', { lease }), T0 + 3_000);
      t.expect('dispatch of another tool under the stale token', false, again.started);
      expectWrites(t, 1);
    },
  }),
  defineScenario({
    id: 'kxm.lease.expiry-instant',
    title: 'A lease expires at expiresAt: a dispatch or a recovery at exactly that instant does not start, one just before does',
    spec: SPEC,
    tags: ['kxm', 'lease'],
    needs: ['kxm', 'point:kxm.declare.after-commit'],
    description:
      'An intent is SIGKILLed after it committed; the restart recovers it at exactly the lease\'s expiresAt. Then one fresh intent is dispatched at expiresAt − 1 and another at expiresAt.',
    asserts: ['recovery at expiresAt answers lease_expired', 'a dispatch at expiresAt − 1 starts', 'a dispatch at expiresAt does not start (lease_expired)', 'one physical write'],
    async trial(t) {
      const lease = leaseFor(t);
      const killed = kxmSpec(t, 'github-pr', { lease });
      await crashThenRestart(t, killed, 'kxm.declare.after-commit');
      const client = await t.driver();
      const decisions = await recoverRun(t, client, [killed], { now: lease.expiresAt });
      t.expect('recovery decision at expiresAt', 'lease_expired', decisions[0]?.decision);
      const before = await runEffect(t, client, kxmSpec(t, 'github-pr', { lease: leaseFor(t) }), T0 + LEASE_MS - 1);
      t.expect('intent before expiry recorded', 'recorded', before.verdict);
      const at = await declareAndDispatch(client, kxmSpec(t, 'github-pr', { lease: leaseFor(t) }), T0 + LEASE_MS);
      t.expect('dispatch at expiresAt started', false, at.started);
      expectWrites(t, 1);
    },
  }),
];
