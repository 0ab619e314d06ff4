import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GateDecision, type Tier, type TierMode } from '../../shared/protocol/schemas.js';
import type { ReferenceJournal } from '../../reference-impl/index.js';
import { makeFixture, proceedId, RESULT, runPrepare, type Fixture } from './helpers.js';

let fx: Fixture;
beforeEach(async () => {
  fx = await makeFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

type Setup = 'committed_retained' | 'committed_unretained' | 'prepared' | 'ambiguous' | 'accepted' | 'discarded';

// Builds one row at node `nodeId` in the given shape and returns its id.
function plant(j: ReferenceJournal, nodeId: string, setup: Setup, tier: Tier, slot = 0): string {
  const id = proceedId(j.prepare(runPrepare({ nodeId, tier, slot })));
  if (setup === 'committed_retained') j.settle({ effectId: id, state: 'committed', result: RESULT });
  if (setup === 'committed_unretained') j.settle({ effectId: id, state: 'committed', result: null });
  if (setup === 'ambiguous') j.settle({ effectId: id, state: 'ambiguous', reason: 'timeout' });
  if (setup === 'accepted' || setup === 'discarded') j.resolve({ effectId: id, decision: setup, actor: 'op' });
  return id;
}

// [setup, tier, action in reconciling mode, action in conservative mode]
const TABLE: Array<[Setup, Tier, string, string]> = [
  ['committed_retained', 1, 'replay', 'replay'],
  ['committed_retained', 3, 'replay', 'replay'],
  ['committed_unretained', 1, 'retry_with_key', 'needs_attention'],
  ['committed_unretained', 2, 'reconcile_receipt', 'needs_attention'],
  ['committed_unretained', 3, 'needs_attention', 'needs_attention'],
  ['prepared', 1, 'retry_with_key', 'needs_attention'],
  ['prepared', 2, 'reconcile_receipt', 'needs_attention'],
  ['prepared', 3, 'needs_attention', 'needs_attention'],
  ['ambiguous', 1, 'retry_with_key', 'needs_attention'],
  ['ambiguous', 2, 'reconcile_receipt', 'needs_attention'],
  ['ambiguous', 3, 'needs_attention', 'needs_attention'],
  ['accepted', 3, 'none', 'none'],
  ['discarded', 3, 'run_again', 'run_again'],
];

describe.each<TierMode>(['reconciling', 'conservative'])('gate in %s mode', (mode) => {
  it.each(TABLE)('%s tier %i', (setup, tier, reconcilingAction, conservativeAction) => {
    const j = fx.open({ tierMode: mode });
    const id = plant(j, 'N', setup, tier);
    const decision = GateDecision.parse(j.gate({ scope: { kind: 'run', runId: 'R', nodeId: 'N' } }));
    const action = mode === 'reconciling' ? reconcilingAction : conservativeAction;
    expect(decision.effects).toHaveLength(1);
    expect(decision.effects[0]).toMatchObject({ effectId: id, tier, action });
    if (action === 'needs_attention') {
      expect(decision.decision).toBe('refuse');
      expect(decision.refusal).toMatchObject({ code: 'effect_needs_attention', tier, effectIds: [id] });
      expect(decision.refusal?.message).toContain(`tier ${tier}`);
      if (mode === 'conservative' && tier !== 3) expect(decision.refusal?.message).toContain('not available');
    } else if (action === 'retry_with_key' || action === 'reconcile_receipt') {
      expect(decision).toMatchObject({ decision: 'reconcile', refusal: null });
      expect(decision.effects[0]?.idempotencyKey).toMatch(/^ik-/);
    } else {
      expect(decision).toMatchObject({ decision: 'pass', refusal: null });
    }
    // §6: only unresolved tier-3 rows move to needs_attention; committed rows stay committed.
    const state = j.listEffects().effects[0]?.state;
    const movesToAttention = tier === 3 && (setup === 'prepared' || setup === 'ambiguous');
    if (movesToAttention) expect(state).toBe('needs_attention');
    else expect(state).not.toBe('needs_attention');
    expect(decision.effects[0]?.state).toBe(state);
  });
});

describe('gate over a whole node', () => {
  it('passes an empty node and ignores other nodes and runs', () => {
    const j = fx.open();
    plant(j, 'N2', 'prepared', 3);
    expect(j.gate({ scope: { kind: 'run', runId: 'R', nodeId: 'N' } })).toEqual({ decision: 'pass', effects: [], refusal: null });
  });

  it('an unresolved second effect blocks even when the first is committed and retained', () => {
    const j = fx.open();
    const first = plant(j, 'N', 'committed_retained', 3, 0);
    const second = plant(j, 'N', 'prepared', 3, 1);
    const decision = j.gate({ scope: { kind: 'run', runId: 'R', nodeId: 'N' }, attempt: 1 });
    expect(decision.decision).toBe('refuse');
    expect(decision.effects.map((e) => [e.effectId, e.action])).toEqual([
      [first, 'replay'],
      [second, 'needs_attention'],
    ]);
    expect(decision.refusal?.effectIds).toEqual([second]);
  });

  it('finds rows of every attempt: the lookup never keys on the attempt', () => {
    const j = fx.open();
    const id = proceedId(j.prepare(runPrepare({ attempt: 3 })));
    const decision = j.gate({ scope: { kind: 'run', runId: 'R', nodeId: 'N' }, attempt: 1 });
    expect(decision.refusal?.effectIds).toEqual([id]);
  });

  it('names the first refused tier when tiers are mixed in conservative mode', () => {
    const j = fx.open({ tierMode: 'conservative' });
    const a = plant(j, 'N', 'prepared', 2, 0);
    const b = plant(j, 'N', 'prepared', 3, 1);
    const decision = j.gate({ scope: { kind: 'run', runId: 'R', nodeId: 'N' } });
    expect(decision.refusal).toMatchObject({ tier: 2, effectIds: [a, b] });
  });

  it('a failed gate read is a refusal, never a pass', () => {
    const j = fx.open();
    j.fault({ fault: 'gate_read_fails', enabled: true });
    expect(j.gate({ scope: { kind: 'run', runId: 'R', nodeId: 'N' } })).toMatchObject({
      decision: 'refuse',
      refusal: { code: 'gate_read_failed', tier: null },
    });
  });
});
