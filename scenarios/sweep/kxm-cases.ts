// The KXM operations that write after the intent (dispatch, recover, resolve, cancel), as write-sweep cases.
import type { SweepCase } from './cases.js';
import { declareParams, kxmSpec, T0, T_LATE, type KxmSpec } from '../kxm/support.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';
import type { KxmEffect, OpResult } from '../../shared/protocol/schemas.js';

/** The effects of one KXM run, by slot: what each sequence declares. */
export interface KxmFixture {
  readonly specs: readonly KxmSpec[];
}

const RECEIPT = 'receipt-sweep-found';
const ACTOR = 'operator-sweep';

function fixture(t: TrialContext, tools: readonly string[]): KxmFixture {
  const first = kxmSpec(t, tools[0]!);
  return { specs: tools.map((toolId, slot) => ({ ...first, toolId, slot, assignmentId: `${first.assignmentId}-${slot}`, attemptId: t.rng.id('att') })) };
}

async function declare(c: JournalClient, spec: KxmSpec): Promise<KxmEffect> {
  const v = await c.op('kxm.declare', declareParams(spec));
  if (v.verdict !== 'recorded') throw new Error(`the setup's kxm.declare was refused: ${v.code}`);
  return v.effect;
}

async function dispatched(c: JournalClient, spec: KxmSpec): Promise<KxmEffect> {
  const effect = await declare(c, spec);
  const d = await c.op('kxm.dispatch', { effectId: effect.effectId, attemptId: effect.attemptId, now: T0 });
  if (!d.started) throw new Error(`the setup's kxm.dispatch did not start: ${d.reason ?? 'no reason'}`);
  return effect;
}

async function listed(c: JournalClient, f: KxmFixture): Promise<OpResult<'kxm.list'>> {
  return c.op('kxm.list', { runId: f.specs[0]!.runId });
}

const bySlot = (l: OpResult<'kxm.list'>, slot: number): KxmEffect[] => l.effects.filter((e) => e.slot === slot);
const shape = (l: OpResult<'kxm.list'>): unknown => ({ run: [l.run.state, l.run.cancelRequested], effects: l.effects.map((e) => [e.slot, e.state, e.receipt?.receiptId ?? null, e.audit.length]) });

export const KXM_SWEEP_CASES: readonly SweepCase<KxmFixture>[] = [
  {
    slug: 'kxm-dispatch',
    op: 'kxm.dispatch',
    scope: 'run',
    spec: 'kxm-effects-and-recovery §Dispatch fence (steps 4–6: the intent commits before the call starts)',
    needs: ['kxm'],
    setupText: 'A run declares a keyed effect (external-idempotent); the engine then marks it dispatched before the call.',
    invariant: 'afterwards the one effect is still an intent that a dispatch now starts under the key it was declared with, or dispatched under that key; never lost, never a second one',
    fixture: (t) => fixture(t, ['kv-put']),
    setup: (c, f) => declare(c, f.specs[0]!),
    async run(c, _f, effect) {
      const e = effect as KxmEffect;
      await c.op('kxm.dispatch', { effectId: e.effectId, attemptId: e.attemptId, now: T0 });
    },
    async check(t, c, f, label) {
      const l = await listed(c, f);
      const [e, ...more] = bySlot(l, 0);
      let ok = e !== undefined && more.length === 0 && (e.state === 'intent' || e.state === 'dispatched');
      let again: unknown = null;
      if (ok && e?.state === 'intent') {
        const d = await c.op('kxm.dispatch', { effectId: e.effectId, attemptId: e.attemptId, now: T0 });
        again = [d.started, d.idempotencyKey === e.idempotencyKey];
        ok = d.started && d.idempotencyKey === e.idempotencyKey;
      }
      t.check(label, 'one effect: an intent that starts under its key, or dispatched', { ...(shape(l) as object), again }, ok);
    },
  },
  {
    slug: 'kxm-recover',
    op: 'kxm.recover',
    scope: 'run',
    spec: 'kxm-effects-and-recovery §Crash matrix ("Stable external receipt found | Record receipt; do not repeat action")',
    needs: ['kxm'],
    setupText: 'A run dispatched a receipt-queryable effect and its process ended without a completion; after the restart the engine recovers it with a found receipt.',
    invariant: 'afterwards the one effect is still dispatched with no receipt (recovery can be asked again), or completed with exactly the found receipt',
    fixture: (t) => fixture(t, ['github-pr']),
    setup: (c, f) => dispatched(c, f.specs[0]!),
    async run(c, _f, effect) {
      const e = effect as KxmEffect;
      await c.op('kxm.recover', { effectId: e.effectId, now: T_LATE, observation: { process: 'ended', receipt: { kind: 'found', receiptId: RECEIPT } } });
    },
    async check(t, c, f, label) {
      const l = await listed(c, f);
      const [e, ...more] = bySlot(l, 0);
      const ok = e !== undefined && more.length === 0 && ((e.state === 'dispatched' && e.receipt === null) || (e.state === 'completed' && e.receipt?.receiptId === RECEIPT));
      t.check(label, 'one effect: dispatched without a receipt, or completed with the found receipt', shape(l), ok);
    },
  },
  {
    slug: 'kxm-resolve',
    op: 'kxm.resolve',
    scope: 'run',
    spec: 'kxm-effects-and-recovery §blocked_uncertain ("A human resolution is an audited control-plane action … The event records actor, reason, supplied references, and resulting action")',
    needs: ['kxm'],
    setupText: 'A run dispatched an effect of unknown class whose process ended with no receipt to query, so recovery left it blocked_uncertain; an operator then marks it completed on an authoritative receipt.',
    invariant: 'afterwards the effect is still blocked_uncertain with no mark_completed audit entry, or completed with the receipt and an audit entry carrying the actor, the reason, the receipt reference and the result',
    fixture: (t) => fixture(t, ['deploy-script']),
    async setup(c, f) {
      const e = await dispatched(c, f.specs[0]!);
      const r = await c.op('kxm.recover', { effectId: e.effectId, now: T_LATE, observation: { process: 'ended', receipt: { kind: 'not_queried' } } });
      if (r.state !== 'blocked_uncertain') throw new Error(`the setup's recovery left the effect ${r.state}, not blocked_uncertain`);
      return e;
    },
    async run(c, _f, effect) {
      const e = effect as KxmEffect;
      await c.op('kxm.resolve', { effectId: e.effectId, action: 'mark_completed', actor: ACTOR, reason: 'the deploy log shows it ran', evidence: { receiptId: RECEIPT, receiptAuthoritative: true } });
    },
    async check(t, c, f, label) {
      const l = await listed(c, f);
      const [e, ...more] = bySlot(l, 0);
      const marked = e?.audit.filter((a) => a.action === 'mark_completed') ?? [];
      const before = e?.state === 'blocked_uncertain' && marked.length === 0;
      const after = e?.state === 'completed' && e.receipt?.receiptId === RECEIPT && marked.length === 1 && marked[0]!.actor === ACTOR && marked[0]!.reason !== '' && marked[0]!.references.includes(RECEIPT) && marked[0]!.result !== '';
      t.check(label, 'blocked_uncertain and unaudited, or completed with its whole audit entry', { ...(shape(l) as object), audit: marked }, e !== undefined && more.length === 0 && (before || after));
    },
  },
  {
    slug: 'kxm-cancel',
    op: 'kxm.cancel',
    scope: 'run',
    spec: 'kxm-effects-and-recovery §blocked_uncertain (Cancel: "Proof no unresolved owned effect remains, otherwise uncertainty remains visible"; an audited control-plane action)',
    needs: ['kxm'],
    setupText: 'A run declares two keyed effects it has not started and dispatches a third; an operator then cancels the run.',
    invariant: 'afterwards all three effects remain; an effect is cancelled only if the run\'s cancellation is recorded; once it is, no intent left starts; the dispatched effect stays dispatched (its uncertainty visible)',
    fixture: (t) => fixture(t, ['kv-put', 'kv-put', 'kv-put']),
    async setup(c, f) {
      await declare(c, f.specs[0]!);
      await declare(c, f.specs[1]!);
      await dispatched(c, f.specs[2]!);
      return null;
    },
    run: async (c, f) => void (await c.op('kxm.cancel', { runId: f.specs[0]!.runId, actor: ACTOR, reason: 'the operator stopped the run' })),
    async check(t, c, f, label) {
      const l = await listed(c, f);
      const all = [0, 1, 2].map((slot) => bySlot(l, slot));
      let ok = all.every((s) => s.length === 1);
      const effects = all.map((s) => s[0]!);
      ok &&= effects.slice(0, 2).every((e) => e?.state === 'intent' || e?.state === 'cancelled') && effects[2]?.state === 'dispatched';
      // A cancelled effect with no recorded cancellation: the request that stopped it is lost, the run looks active.
      ok &&= !effects.some((e) => e?.state === 'cancelled') || l.run.cancelRequested;
      let started: unknown = null;
      if (ok && l.run.cancelRequested) {
        for (const e of effects.slice(0, 2).filter((x) => x.state === 'intent')) {
          const d = await c.op('kxm.dispatch', { effectId: e.effectId, attemptId: e.attemptId, now: T0 });
          started = d.started;
          ok &&= !d.started;
        }
      }
      ok &&= l.run.state !== 'cancelled';
      t.check(label, 'three effects; cancelled only under a recorded cancellation, which then starts nothing; the run not cancelled while one is dispatched', { ...(shape(l) as object), started }, ok);
    },
  },
];
