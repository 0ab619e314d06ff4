// The run operations beyond prepare and settle that write (gate, resolve, reconcile, checkpoint), as write-sweep cases.
import { isDeepStrictEqual } from 'node:util';
import type { SweepCase } from './cases.js';
import { defaultPrepare, defaultCall, isUnresolved, nodeRows, rows } from '../support.js';
import { DEFAULT_MAPPING, deriveProjections } from '../../harness/engine/projections.js';
import { proceeded } from '../../harness/engine/setup-verdict.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';
import type { EffectRow, GateDecision, OpParams, RecordedResult, Tier } from '../../shared/protocol/schemas.js';

/** One run node with effects at three slots; the gate is the journal's or the harness's, as the hello says. */
export interface NodeFixture {
  readonly runId: string;
  readonly calls: readonly OpParams<'prepare'>[];
  readonly result: RecordedResult;
  gate(client: JournalClient): Promise<GateDecision>;
}

const RESULT = deriveProjections('http_request', `{"echo":"${'y'.repeat(80)}","tail":"END"}`, DEFAULT_MAPPING);

function nodeFixture(t: TrialContext, tiers: readonly Tier[]): NodeFixture {
  const runId = t.rng.id('run');
  const calls = tiers.map((tier, slot) => defaultPrepare(t, runId, 'node-a', defaultCall({ slot, tier, args: { ...defaultCall().args, amount: 40 + slot } })));
  return { runId, calls, result: RESULT, gate: (client) => client.op('gate', { scope: { kind: 'run', runId, nodeId: 'node-a' }, attempt: 1 }) };
}

const slotRows = async (c: JournalClient, f: NodeFixture): Promise<EffectRow[]> => nodeRows(await rows(c), f.runId, 'node-a');
const shape = (left: readonly EffectRow[]): unknown => left.map((r) => [r.slot, r.state, r.resultRetained, r.resolution?.decision ?? null]);
const untouched = (r: EffectRow | undefined): boolean => isUnresolved(r) && r?.resolution === null;

/** Replays a committed slot's call: the verbatim recorded result, or what it answered instead. */
async function replays(c: JournalClient, f: NodeFixture, slot: number): Promise<boolean> {
  const again = await c.op('prepare', f.calls[slot]!);
  return again.verdict === 'replay' && isDeepStrictEqual(again.result, f.result);
}

export const OP_SWEEP_CASES: readonly SweepCase<NodeFixture>[] = [
  {
    slug: 'gate',
    op: 'gate',
    scope: 'run',
    spec: 'effect-journal §4, §6, §8 (needs_attention)',
    needs: [],
    setupText: 'A run node holds an unresolved tier-3 effect (prepared), one settled ambiguous and one committed with a result; the resume gate then reads the node (a journal may move the unresolved rows to needs_attention as it decides).',
    invariant: 'afterwards the node still holds its three rows: the two unresolved ones unresolved without a resolution, the committed one replaying its result, and the gate refuses',
    mayWriteNothing: '§4 demands a decision, not a write: a gate that stores nothing leaves no window',
    fixture: (t) => nodeFixture(t, [3, 3, 3]),
    async setup(c, f) {
      proceeded(await c.op('prepare', f.calls[0]!), 'slot 0');
      const one = proceeded(await c.op('prepare', f.calls[1]!), 'slot 1');
      await c.op('settle', { effectId: one, state: 'ambiguous', reason: 'no answer from the target' });
      const two = proceeded(await c.op('prepare', f.calls[2]!), 'slot 2');
      await c.op('settle', { effectId: two, state: 'committed', result: f.result });
      return null;
    },
    run: async (c, f) => void (await f.gate(c)),
    async check(t, c, f, label) {
      const left = await slotRows(c, f);
      const gate = await f.gate(c);
      const kept = left.length === 3 && untouched(left[0]) && untouched(left[1]) && left[2]?.state === 'committed' && left[2].resultRetained;
      const replayed = kept && (await replays(c, f, 2));
      t.check(label, 'three rows (two unresolved, one committed that replays) and gate refuse', { rows: shape(left), gate: gate.decision, replayed }, kept && replayed && gate.decision === 'refuse');
    },
  },
  {
    slug: 'resolve',
    op: 'resolve',
    scope: 'run',
    spec: 'effect-journal §8 ("The resolution is written to the row with the actor and a timestamp"), §6',
    needs: ['resolution'],
    setupText: 'A run node holds two unresolved tier-3 effects (one prepared, one settled ambiguous) that the gate has refused; an operator then resolves the first as accepted and the second as discarded.',
    invariant: 'afterwards each row is as it was (unresolved, no resolution) or carries its whole resolution (decision, actor and time), never a state the operator did not give it, and the gate passes only when both are resolved',
    fixture: (t) => nodeFixture(t, [3, 3]),
    async setup(c, f) {
      const zero = proceeded(await c.op('prepare', f.calls[0]!), 'slot 0');
      const one = proceeded(await c.op('prepare', f.calls[1]!), 'slot 1');
      await c.op('settle', { effectId: one, state: 'ambiguous', reason: 'no answer from the target' });
      await f.gate(c);
      return [zero, one];
    },
    async run(c, _f, ids) {
      const [zero, one] = ids as [string, string];
      await c.op('resolve', { effectId: zero, decision: 'accepted', actor: 'operator-accept' });
      await c.op('resolve', { effectId: one, decision: 'discarded', actor: 'operator-discard' });
    },
    async check(t, c, f, label) {
      const left = await slotRows(c, f);
      const whole = (r: EffectRow | undefined, decision: 'accepted' | 'discarded', actor: string): boolean =>
        r?.resolution?.decision === decision && r.resolution.actor === actor && r.resolution.at !== '' && (r.state !== 'committed' || decision === 'accepted');
      const ok = left.length === 2 && (untouched(left[0]) || whole(left[0], 'accepted', 'operator-accept')) && (untouched(left[1]) || whole(left[1], 'discarded', 'operator-discard'));
      const gate = await f.gate(c);
      const expected = left.every((r) => r.resolution !== null) ? 'pass' : 'refuse';
      t.check(label, `two rows, each untouched or wholly resolved, and gate ${expected}`, { rows: left.map((r) => [r.slot, r.state, r.resolution?.decision ?? null, r.resolution?.actor ?? null]), gate: gate.decision }, ok && gate.decision === expected);
    },
  },
  {
    slug: 'reconcile',
    op: 'reconcile',
    scope: 'run',
    spec: 'effect-journal §4 (tiers 1 and 2), §6 ("ambiguous --> committed: tier 2 reconciliation found a receipt")',
    needs: ['tierMode:reconciling'],
    setupText: 'A run node holds an unresolved tier-1 effect (prepared, keyed) and a tier-2 effect settled ambiguous; the engine then reconciles the first with a keyed retry\'s result and the second with a found receipt.',
    invariant: 'afterwards each row is still unresolved and the gate does not pass, or is committed with the complete result, which the re-run replays verbatim',
    fixture: (t) => nodeFixture(t, [1, 2]),
    async setup(c, f) {
      const zero = proceeded(await c.op('prepare', f.calls[0]!), 'slot 0');
      const one = proceeded(await c.op('prepare', f.calls[1]!), 'slot 1');
      await c.op('settle', { effectId: one, state: 'ambiguous', reason: 'no answer from the target' });
      return [zero, one];
    },
    async run(c, f, ids) {
      const [zero, one] = ids as [string, string];
      await c.op('reconcile', { effectId: zero, evidence: { kind: 'retried_with_key', result: f.result } });
      await c.op('reconcile', { effectId: one, evidence: { kind: 'receipt_found', result: f.result } });
    },
    async check(t, c, f, label) {
      const left = await slotRows(c, f);
      const gate = await f.gate(c);
      let ok = left.length === 2;
      for (const r of left) ok &&= untouched(r) || (r.state === 'committed' && r.resultRetained && (await replays(c, f, r.slot)));
      const anyOpen = left.some((r) => r.state !== 'committed');
      t.check(label, 'each row unresolved or committed and replaying; gate not pass while one is unresolved', { rows: shape(left), gate: gate.decision }, ok && (anyOpen ? gate.decision !== 'pass' : gate.decision === 'pass'));
    },
  },
  {
    slug: 'checkpoint',
    op: 'checkpoint',
    scope: 'run',
    spec: 'effect-journal §11 (checkpoint after commit), §10, §9',
    needs: [],
    setupText: 'A run node holds a committed effect with a result, an unresolved one and one settled ambiguous; then the journal is asked to checkpoint (maintenance that moves committed bytes between its files).',
    invariant: 'afterwards every row is as it was: the committed one replays its result verbatim, the unresolved ones stay unresolved and the gate refuses',
    mayWriteNothing: 'a journal with nothing to fold (no write-ahead log) checkpoints without writing',
    fixture: (t) => nodeFixture(t, [3, 3, 3]),
    async setup(c, f) {
      const zero = proceeded(await c.op('prepare', f.calls[0]!), 'slot 0');
      await c.op('settle', { effectId: zero, state: 'committed', result: f.result });
      proceeded(await c.op('prepare', f.calls[1]!), 'slot 1');
      const two = proceeded(await c.op('prepare', f.calls[2]!), 'slot 2');
      await c.op('settle', { effectId: two, state: 'ambiguous', reason: 'no answer from the target' });
      return null;
    },
    run: async (c) => void (await c.op('checkpoint', {})),
    async check(t, c, f, label) {
      const left = await slotRows(c, f);
      const gate = await f.gate(c);
      const kept = left.length === 3 && left[0]?.state === 'committed' && left[0].resultRetained && untouched(left[1]) && untouched(left[2]);
      const replayed = kept && (await replays(c, f, 0));
      t.check(label, 'three rows as they were, the committed one replaying, gate refuse', { rows: shape(left), gate: gate.decision, replayed }, kept && replayed && gate.decision === 'refuse');
    },
  },
];
