// The model's per-effect key and KXM diagnostics checks on their own (pure, no processes).
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../harness/model/check-history.js';
import type { HistoryEvent, OpAnswer } from '../../harness/model/history.js';
import { rowLogicalKey } from '../../harness/model/journal-state.js';
import { logicalKey, scopeKey, sessionScopeKey } from '../../harness/engine/model.js';

const ok = (r: unknown): OpAnswer => ({ kind: 'result', result: r });
const prep = (slot: number, tier: 1 | 3 = 1) => ({
  correlation: { kind: 'run', runId: 'r', nodeId: 'n', attempt: 1 }, slot, toolId: 't', tier, args: { a: 1 }, secretArgKeys: [], outputMappingConfig: { field: 'tail', bound: 8 },
  audit: { providerAttempt: 1, callId: `c${slot}`, ownerId: 'o', generation: 0 },
});
const op = (i: number, name: string, params: unknown, answer: OpAnswer): HistoryEvent => ({ kind: 'op', driver: 'p#1', op: name as never, params, answer, sent: 2 * i, answered: 2 * i + 1 });

describe('§2 keys are per effect', () => {
  it('fails a tier-1 key handed to two identities with equal arguments, and passes distinct ones', () => {
    const twice = (k2: string) => [op(1, 'prepare', prep(0), ok({ verdict: 'proceed', effectId: '1', idempotencyKey: 'k1' })), op(2, 'prepare', prep(1), ok({ verdict: 'proceed', effectId: '2', idempotencyKey: k2 }))];
    expect(checkHistory(twice('k1'), { tierMode: 'conservative' }).failure?.clause).toBe('key.distinct');
    expect(checkHistory(twice('k2'), { tierMode: 'conservative' }).failure).toBeNull();
  });

  it('fails one key reaching a target for two logical effects (the target deduplicates one into the other)', () => {
    const dispatch = (logicalKey: string, applied = true): HistoryEvent => ({ kind: 'dispatch', target: 'tier1-t', tier: 1, logicalKey, idempotencyKey: 'k1', applied, deduplicated: !applied });
    expect(checkHistory([dispatch('r/n/0/t'), dispatch('r/n/1/t')], { tierMode: 'conservative' }).failure?.clause).toBe('key.distinct');
    expect(checkHistory([dispatch('r/n/0/t'), dispatch('r/n/0/t', false)], { tierMode: 'conservative' }).failure).toBeNull();
  });
});

describe('the target ledgers\' logical keys', () => {
  it('never give a session turn and a run node that share an id and a number one key (session a/b turn 0, run a/b node 0)', () => {
    const call = { slot: 0, toolId: 'http_request' };
    const run = logicalKey(scopeKey('a/b', '0'), call);
    const session = logicalKey(sessionScopeKey('a/b', 0), call);
    expect(session).not.toBe(run);
    // The engine and the model name a row alike: a write the engine dispatched is the row's.
    expect(rowLogicalKey({ scope: { kind: 'session', sessionId: 'a/b', turn: 0 }, ...call })).toBe(session);
    expect(rowLogicalKey({ scope: { kind: 'run', runId: 'a/b', nodeId: '0' }, ...call })).toBe(run);
  });
});

describe('KXM keys and diagnostics', () => {
  const registry = { revision: 'r', tools: { 'kv-put': { class: 'external-idempotent' as const, receiptQuery: 'kv-get' } } };
  const declare = (i: number) => ({ runId: 'k', stepId: 's', assignmentId: `asg-${i}`, attemptId: `att-${i}`, slot: 0, toolId: 'kv-put', registry });
  const effect = (i: number, key: string, state: string, reconciliationAttempts: number) => ({
    effectId: String(i), runId: 'k', stepId: 's', assignmentId: `asg-${i}`, attemptId: `att-${i}`, slot: 0, toolId: 'kv-put', effectClass: 'external-idempotent', tier: 1,
    declaredClass: null, declarationAccepted: true, registryRevision: 'r', receiptQuery: 'kv-get', idempotencyKey: key, state, lease: null, receipt: null, blocked: null, reconciliationAttempts, audit: [],
  });
  const list = (effects: unknown[]) => ok({ run: { runId: 'k', state: 'active', cancelRequested: false }, effects });

  it('fails two assignment effects under one key', () => {
    const h = [op(1, 'kxm.declare', declare(0), ok({ verdict: 'recorded', effect: effect(0, 'kx', 'intent', 0) })), op(2, 'kxm.declare', declare(1), ok({ verdict: 'recorded', effect: effect(1, 'kx', 'intent', 0) }))];
    expect(checkHistory(h, { tierMode: 'conservative' }).failure?.clause).toBe('kxm.key');
  });

  it('counts reconciliation attempts as the recoveries of an unsettled effect, the dispatch none', () => {
    const upTo = (attempts: number, recovered: boolean) => [
      op(1, 'kxm.declare', declare(0), ok({ verdict: 'recorded', effect: effect(0, 'k0', 'intent', 0) })),
      op(2, 'kxm.dispatch', { effectId: '0', attemptId: 'att-0', now: 1_000_000 }, ok({ effectId: '0', started: true, reason: null, state: 'dispatched', idempotencyKey: 'k0' })),
      ...(recovered ? [op(3, 'kxm.recover', { effectId: '0', now: 1_001_000, observation: { process: 'ended', receipt: { kind: 'unavailable' } } }, ok({ effectId: '0', decision: 'blocked_uncertain', state: 'blocked_uncertain', attemptId: 'att-0', idempotencyKey: 'k0', reason: 'x' }))] : []),
      op(4, 'kxm.list', { runId: 'k' }, list([effect(0, 'k0', recovered ? 'blocked_uncertain' : 'dispatched', attempts)])),
    ];
    expect(checkHistory(upTo(0, false), { tierMode: 'conservative' }).failure).toBeNull();
    expect(checkHistory(upTo(1, false), { tierMode: 'conservative' }).failure?.clause).toBe('kxm.diagnostics');
    expect(checkHistory(upTo(1, true), { tierMode: 'conservative' }).failure).toBeNull();
    expect(checkHistory(upTo(2, true), { tierMode: 'conservative' }).failure?.clause).toBe('kxm.diagnostics');
  });
});
