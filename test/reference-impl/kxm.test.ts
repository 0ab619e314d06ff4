import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JournalError } from '../../harness/journal-interface.js';
import { KxmEffect, type KxmRegistry, type OpParams } from '../../shared/protocol/schemas.js';
import type { ReferenceJournal } from '../../reference-impl/index.js';
import { effectiveClass, tierOf } from '../../reference-impl/kxm/classes.js';
import { makeFixture, type Fixture } from './helpers.js';

const REGISTRY: KxmRegistry = {
  revision: 'r1',
  tools: {
    'kv-put': { class: 'external-idempotent', receiptQuery: 'kv-get' },
    'github-pr': { class: 'receipt-queryable', receiptQuery: 'pr-by-head' },
    'deploy-script': { class: 'unknown', receiptQuery: null },
    'git-status': { class: 'read-only', receiptQuery: null },
    format: { class: 'workspace-mutation', receiptQuery: null },
  },
};
type Observation = OpParams<'kxm.recover'>['observation'];

let fx: Fixture;
let j: ReferenceJournal;
beforeEach(async () => {
  fx = await makeFixture();
  j = fx.open();
});
afterEach(async () => {
  await fx.cleanup();
});

// Declares one effect and returns its wire view.
function declare(toolId: string, extra: Partial<OpParams<'kxm.declare'>> = {}): KxmEffect {
  const v = j['kxm.declare']({ runId: 'R', stepId: 'S', assignmentId: `A-${toolId}`, attemptId: 'att-1', slot: 0, toolId, registry: REGISTRY, ...extra });
  if (v.verdict !== 'recorded') throw new Error(`declare refused: ${v.code}`);
  return KxmEffect.parse(v.effect);
}

// Declares and dispatches, leaving the effect in flight as a crash before completion would.
function inFlight(toolId: string): KxmEffect {
  const e = declare(toolId);
  expect(j['kxm.dispatch']({ effectId: e.effectId, attemptId: e.attemptId, now: 0 }).started).toBe(true);
  return e;
}

function recover(e: KxmEffect, observation: Partial<Observation> = {}, now = 0) {
  return j['kxm.recover']({ effectId: e.effectId, now, observation: { process: 'ended', receipt: { kind: 'not_queried' }, ...observation } });
}

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof JournalError) return error.code;
    throw error;
  }
  return 'no error';
}

describe('effect classes', () => {
  it('keeps the registry class against a safer declaration, honours a more cautious one, defaults unknown', () => {
    expect(effectiveClass(REGISTRY, 'deploy-script', 'external-idempotent')).toEqual({ effectClass: 'unknown', declarationAccepted: false, receiptQuery: null });
    expect(effectiveClass(REGISTRY, 'kv-put', 'external-non-idempotent')).toMatchObject({ effectClass: 'external-non-idempotent', declarationAccepted: true });
    expect(effectiveClass(REGISTRY, 'custom-shell', 'read-only')).toMatchObject({ effectClass: 'unknown', declarationAccepted: false });
    expect(effectiveClass(REGISTRY, 'constructor', undefined).effectClass).toBe('unknown');
    expect([tierOf('external-idempotent'), tierOf('receipt-queryable'), tierOf('unknown'), tierOf('external-non-idempotent'), tierOf('read-only')]).toEqual([1, 2, 3, 3, null]);
  });

  it('derives one idempotency key per assignment effect and refuses a second intent for it', () => {
    const e = declare('kv-put');
    const again = j['kxm.declare']({ runId: 'R', stepId: 'S', assignmentId: 'A-kv-put', attemptId: 'att-2', slot: 0, toolId: 'kv-put', registry: REGISTRY });
    expect(again).toMatchObject({ verdict: 'refused', code: 'duplicate_identity', effectId: e.effectId });
    expect(e.idempotencyKey).toMatch(/^kxm1-[0-9a-f]{32}$/);
  });
});

describe('recovery decisions (crash matrix)', () => {
  it('starts the same planned attempt for an intent that never dispatched', () => {
    const e = declare('deploy-script');
    expect(recover(e)).toMatchObject({ decision: 'start_planned_attempt', state: 'intent', attemptId: 'att-1' });
  });

  it.each([
    ['github-pr', { receipt: { kind: 'found', receiptId: 'rc-1' } }, 'record_receipt', 'completed'],
    ['kv-put', { receipt: { kind: 'absent' } }, 'retry_same_key', 'dispatched'],
    ['github-pr', { receipt: { kind: 'unavailable' } }, 'blocked_uncertain', 'blocked_uncertain'],
    ['github-pr', { receipt: { kind: 'ambiguous' } }, 'blocked_uncertain', 'blocked_uncertain'],
    ['github-pr', { process: 'replacement_exists', receipt: { kind: 'absent' } }, 'blocked_uncertain', 'blocked_uncertain'],
    ['github-pr', { process: 'alive_same' }, 'reattach', 'dispatched'],
    ['deploy-script', { receipt: { kind: 'found', receiptId: 'rc-1' } }, 'blocked_uncertain', 'blocked_uncertain'],
    ['git-status', {}, 'retry_bounded', 'dispatched'],
    ['format', { postcondition: 'verified' }, 'record_postcondition', 'completed'],
    ['format', { postcondition: 'not_comparable' }, 'blocked_uncertain', 'blocked_uncertain'],
  ] as const)('%s after dispatch with %j → %s', (tool, observation, decision, state) => {
    const e = inFlight(tool);
    expect(recover(e, observation as Partial<Observation>)).toMatchObject({ decision, state, idempotencyKey: e.idempotencyKey });
  });

  it('keeps a blocked effect blocked whatever a later observation says', () => {
    const e = inFlight('github-pr');
    recover(e, { receipt: { kind: 'unavailable' } });
    expect(recover(e, { receipt: { kind: 'found', receiptId: 'late' } }).decision).toBe('blocked_uncertain');
    expect(j['kxm.list']({ runId: 'R' }).effects[0]).toMatchObject({ reconciliationAttempts: 2, blocked: { permittedResolutions: expect.arrayContaining(['mark_failed']) } });
  });
});

describe('leases', () => {
  const lease = { leaseId: 'L', fencingToken: 1, expiresAt: 100 };
  it('does not start an operation whose lease expired before dispatch', () => {
    const e = declare('github-pr', { lease });
    expect(j['kxm.dispatch']({ effectId: e.effectId, attemptId: 'att-1', now: 100 })).toMatchObject({ started: false, reason: 'lease_expired', state: 'not_started' });
    expect(recover(declare('kv-put', { lease }), {}, 150)).toMatchObject({ decision: 'lease_expired', state: 'not_started' });
  });

  it('refuses to start an intent whose lease was re-granted under a higher fencing token, before expiry', () => {
    const stale = declare('github-pr', { lease });
    const staleRecovered = declare('deploy-script', { lease });
    const current = declare('kv-put', { lease: { ...lease, fencingToken: 2 } });
    expect(j['kxm.dispatch']({ effectId: stale.effectId, attemptId: 'att-1', now: 10 })).toMatchObject({ started: false, reason: 'lease_fenced', state: 'not_started' });
    expect(recover(staleRecovered, {}, 10)).toMatchObject({ decision: 'lease_fenced', state: 'not_started' });
    expect(j['kxm.dispatch']({ effectId: current.effectId, attemptId: 'att-1', now: 10 })).toMatchObject({ started: true, reason: null });
    // Another lease's tokens fence nothing here.
    const other = declare('format', { lease: { leaseId: 'M', fencingToken: 0, expiresAt: 100 } });
    expect(j['kxm.dispatch']({ effectId: other.effectId, attemptId: 'att-1', now: 10 }).started).toBe(true);
  });

  it('after dispatch, an expired lease changes nothing: the receipt decides', () => {
    const e = declare('github-pr', { lease });
    j['kxm.dispatch']({ effectId: e.effectId, attemptId: 'att-1', now: 50 });
    expect(recover(e, { receipt: { kind: 'unavailable' } }, 500).decision).toBe('blocked_uncertain');
  });
});

describe('resolution and cancellation', () => {
  function blocked(): KxmEffect {
    const e = inFlight('deploy-script');
    recover(e);
    return e;
  }
  const resolve = (e: KxmEffect, action: OpParams<'kxm.resolve'>['action'], evidence: OpParams<'kxm.resolve'>['evidence'], reason = 'why') =>
    j['kxm.resolve']({ effectId: e.effectId, action, actor: 'op', reason, evidence });

  it.each([
    ['mark_completed', { receiptId: 'r', receiptAuthoritative: false }, { receiptId: 'r', receiptAuthoritative: true }, 'completed'],
    ['mark_completed', {}, { postconditionVerified: true }, 'completed'],
    ['confirm_absent_retry', { negativeQueryAuthoritative: true, newAttemptId: 'att-1' }, { negativeQueryAuthoritative: true, newAttemptId: 'att-2' }, 'intent'],
    ['compensate_retry', { compensationReceiptId: 'c', newAttemptId: 'att-2' }, { compensationReceiptId: 'c', workflowAuthorized: true, newAttemptId: 'att-2' }, 'intent'],
  ] as const)('%s: refused with %j, applied with %j', (action, without, withEvidence, state) => {
    const e = blocked();
    expect(code(() => resolve(e, action, without))).toBe('kxm_evidence_missing');
    const out = resolve(e, action, withEvidence);
    expect(out.state).toBe(state);
    expect(out.audit).toEqual([expect.objectContaining({ action, actor: 'op', reason: 'why', result: state })]);
  });

  it('mark_failed needs a reason; a resolved effect cannot be resolved again', () => {
    const e = blocked();
    expect(code(() => resolve(e, 'mark_failed', {}, ' '))).toBe('kxm_evidence_missing');
    expect(resolve(e, 'mark_failed', {}).state).toBe('failed');
    expect(code(() => resolve(e, 'mark_failed', {}))).toBe('kxm_invalid');
  });

  it('cancels only when nothing is unresolved, and stops new dispatches', () => {
    const e = blocked();
    const pending = declare('kv-put');
    expect(j['kxm.cancel']({ runId: 'R', actor: 'op', reason: 'abort' })).toEqual({ runId: 'R', state: 'blocked_uncertain', unresolvedEffectIds: [e.effectId], cancelledEffectIds: [pending.effectId] });
    expect(j['kxm.declare']({ runId: 'R', stepId: 'S', assignmentId: 'late', attemptId: 'a', slot: 0, toolId: 'kv-put', registry: REGISTRY })).toMatchObject({ verdict: 'refused', code: 'run_cancelled' });
    resolve(e, 'mark_completed', { postconditionVerified: true });
    expect(j['kxm.cancel']({ runId: 'R', actor: 'op', reason: 'abort' }).state).toBe('cancelled');
    expect(j['kxm.list']({ runId: 'R' }).run).toEqual({ runId: 'R', state: 'cancelled', cancelRequested: true });
  });

  it('announces the kxm crash points at the fence steps', () => {
    const e = declare('github-pr');
    j['kxm.dispatch']({ effectId: e.effectId, attemptId: 'att-1', now: 0 });
    j['kxm.complete']({ effectId: e.effectId, attemptId: 'att-1', receiptId: 'rc' });
    expect(fx.crashpoints).toEqual(['kxm.declare.after-commit', 'kxm.dispatch.after-commit', 'kxm.complete.before-commit']);
  });
});
