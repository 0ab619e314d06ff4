// KXM lease classes found by journals written from the spec alone: expiry is an instant in milliseconds, not a second.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { crashThenRestart, declareAndDispatch, effectOf, expectWrites, kxmSpec, leaseFor, recoverRun } from './support.js';

const SPEC = 'kxm-effects-and-recovery §Lease failure ("if the lease expires before dispatch, the operation is not started")';
// Off every whole second, so a journal that rounds or truncates instants to seconds compares the wrong ones.
const OFFSET_MS = 250;

export const blindKxm: Scenario[] = [
  defineScenario({
    id: 'kxm.lease.sub-second-expiry',
    title: 'A lease that expired a fraction of a second ago fences a dispatch and a recovery within the same second',
    spec: SPEC,
    tags: ['kxm', 'lease'],
    needs: ['kxm', 'point:kxm.declare.after-commit'],
    description:
      `Every lease here expires ${OFFSET_MS} ms past a whole second. An intent is SIGKILLed after it committed; the restart recovers it 1 ms after ` +
      'its expiry. Then fresh intents are dispatched 1 ms before their expiry (starts) and 500 ms after it, still inside the same whole second (must not start).',
    asserts: ['recovery 1 ms after expiry answers lease_expired', 'a dispatch 1 ms before expiry starts', 'a dispatch 500 ms after expiry, in the same second, does not start', 'no physical write (nothing here may start)'],
    async trial(t) {
      const lease = () => {
        const l = leaseFor(t);
        return { ...l, expiresAt: l.expiresAt + OFFSET_MS };
      };
      const killedLease = lease();
      const killed = kxmSpec(t, 'github-pr', { lease: killedLease });
      await crashThenRestart(t, killed, 'kxm.declare.after-commit');
      const client = await t.driver();
      const decisions = await recoverRun(t, client, [killed], { now: killedLease.expiresAt + 1 });
      t.expect('recovery decision 1 ms after expiry', 'lease_expired', decisions[0]?.decision);
      t.expect('recovered intent state', 'not_started', (await effectOf(client, killed))?.state);
      const early = lease();
      const before = await declareAndDispatch(client, kxmSpec(t, 'github-pr', { lease: early }), early.expiresAt - 1);
      t.expect('dispatch 1 ms before expiry started', true, before.started);
      const late = lease();
      const after = await declareAndDispatch(client, kxmSpec(t, 'github-pr', { lease: late }), late.expiresAt + 500);
      t.expect('dispatch 500 ms after expiry started', false, after.started);
      expectWrites(t, 0);
    },
  }),
];
