// The harness-side §4 gate for stores without one of their own: the table row by row, exact scopes, any attempt.
import { describe, expect, it } from 'vitest';
import { decideGate } from '../../harness/engine/harness-gate.js';
import type { EffectRow } from '../../shared/protocol/schemas.js';

const SCOPE = { kind: 'run' as const, runId: 'r1', nodeId: 'n' };

function row(over: Partial<EffectRow> & Pick<EffectRow, 'effectId'>): EffectRow {
  return {
    scope: SCOPE, slot: 0, toolId: 'http_request', tier: 3, state: 'prepared', argsDigest: `v5:${'0'.repeat(64)}`, idempotencyKey: null, resultRetained: false, resolution: null,
    attempt: { nodeAttempt: 2, providerAttempt: 1, callId: 'c', ownerId: 'o', generation: 0 },
    ...over,
  };
}

describe('decideGate', () => {
  it('passes a node whose rows are committed with their result, replaying them', () => {
    const d = decideGate([row({ effectId: '1', state: 'committed', resultRetained: true })], SCOPE, 'conservative');
    expect([d.decision, d.effects.map((e) => e.action), d.refusal]).toEqual(['pass', ['replay'], null]);
  });

  it.each(['prepared', 'ambiguous', 'needs_attention'] as const)('refuses a %s tier-3 row, naming it and its tier', (state) => {
    const d = decideGate([row({ effectId: '7', state })], SCOPE, 'reconciling');
    expect(d.decision).toBe('refuse');
    expect(d.refusal).toMatchObject({ code: 'effect_needs_attention', tier: 3, effectIds: ['7'] });
    expect(d.effects[0]?.state).toBe(state);
  });

  it('refuses a committed row without its result, and an unresolved row beside a committed one', () => {
    expect(decideGate([row({ effectId: '1', state: 'committed' })], SCOPE, 'conservative').decision).toBe('refuse');
    const d = decideGate([row({ effectId: '1', state: 'committed', resultRetained: true }), row({ effectId: '2', slot: 1 })], SCOPE, 'conservative');
    expect([d.decision, d.refusal?.effectIds]).toEqual(['refuse', ['2']]);
  });

  it('asks to reconcile tiers 1 and 2 in a reconciling journal, and refuses them naming their tier in a conservative one', () => {
    const rows = [row({ effectId: '1', tier: 1, idempotencyKey: 'k' }), row({ effectId: '2', tier: 2, slot: 1 })];
    const reconciling = decideGate(rows, SCOPE, 'reconciling');
    expect([reconciling.decision, reconciling.effects.map((e) => [e.action, e.idempotencyKey])]).toEqual(['reconcile', [['retry_with_key', 'k'], ['reconcile_receipt', null]]]);
    const conservative = decideGate(rows, SCOPE, 'conservative');
    expect([conservative.decision, conservative.refusal?.tier]).toEqual(['refuse', 1]);
  });

  it('lets resolved rows through: accepted is never run again, discarded may run again', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const d = decideGate([row({ effectId: '1', resolution: { decision: 'accepted', actor: 'op', at } }), row({ effectId: '2', slot: 1, resolution: { decision: 'discarded', actor: 'op', at } })], SCOPE, 'conservative');
    expect([d.decision, d.effects.map((e) => e.action)]).toEqual(['pass', ['none', 'run_again']]);
  });

  it('sees exactly its own node: no prefix, no other run, no session row', () => {
    const others = [row({ effectId: '1', scope: { kind: 'run', runId: 'r10', nodeId: 'n' } }), row({ effectId: '2', scope: { kind: 'run', runId: 'r1', nodeId: 'n2' } }), row({ effectId: '3', scope: { kind: 'session', sessionId: 'r1', turn: 0 } })];
    expect(decideGate(others, SCOPE, 'conservative')).toEqual({ decision: 'pass', effects: [], refusal: null });
  });
});
