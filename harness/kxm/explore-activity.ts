// Generated KXM work: effects of every class through the dispatch fence, a kill inside it, and recovery by the journal's decision.
import fc from 'fast-check';
import type { KxmClass, KxmRegistry, OpParams, Tier } from '../../shared/protocol/schemas.js';
import type { Exec } from '../explore/execute.js';

/** The trusted registry generated effects declare against; `custom-shell` is deliberately not in it. */
export const REGISTRY: KxmRegistry = {
  revision: 'explore-r1',
  tools: {
    'kv-put': { class: 'external-idempotent', receiptQuery: 'kv-get' },
    'github-pr': { class: 'receipt-queryable', receiptQuery: 'pr-by-head' },
    'deploy-script': { class: 'unknown', receiptQuery: null },
    payment: { class: 'external-non-idempotent', receiptQuery: null },
    'git-status': { class: 'read-only', receiptQuery: null },
    format: { class: 'workspace-mutation', receiptQuery: null },
    codegen: { class: 'workspace-mutation', receiptQuery: null },
  },
};
// How the fake targets behave: tier 1 dedups by key, tier 2 answers receipts, tier 3 is opaque.
const TARGET_TIER: Record<string, Tier> = { 'kv-put': 1, 'github-pr': 2 };
// Workspace tools whose postcondition can be compared (formatting is deterministic; generated code is not).
const COMPARABLE = new Set(['format']);
const CLASSES: KxmClass[] = ['read-only', 'workspace-mutation', 'external-idempotent', 'receipt-queryable', 'unknown', 'external-non-idempotent'];
const T0 = 1_000_000;
const LEASE_MS = 60_000;

export interface KxmPlan {
  readonly effects: ReadonlyArray<{
    readonly toolId: string;
    readonly declared: KxmClass | null;
    readonly lease: { readonly pool: number; readonly token: number; readonly expired: boolean } | null;
    /** What the engine observes at recovery: the process, and a receipt query answered by the world or not at all. */
    readonly process: 'ended' | 'alive_same' | 'replacement_exists' | 'unknown';
    readonly receipt: 'world' | 'unavailable' | 'ambiguous';
  }>;
  readonly late: boolean;
  readonly resolve: { readonly action: 'mark_completed' | 'confirm_absent_retry' | 'compensate_retry' | 'mark_failed'; readonly evidence: 'full' | 'none' } | null;
  /** Cancellation requested while the run was down (before recovery), after recovery, or without a reason. */
  readonly cancel: 'none' | 'before-recovery' | 'after-recovery' | 'empty-reason';
  /** Instants at millisecond precision (arb-widen.ts): absent, the dispatch is at T0, leases end at it or a minute later. */
  readonly clock?: KxmClock;
}

/**
 * When things happen, in ms after T0: the dispatches at `at`; each leased effect's lease ends `expiries[i]` (cycling)
 * after them, at or before them (≤ 0) for one the plan has expired, after them for the others; recovery `recoverIn`
 * after them (a late plan's recovery stays two lease lengths on).
 */
export interface KxmClock {
  readonly at: number;
  readonly expiries: readonly number[];
  readonly recoverIn: number;
}

/** The arbitrary of one KXM activity's plan (every class, downgrade attempts, shared leases with fencing tokens). */
export const kxmPlan: fc.Arbitrary<KxmPlan> = fc.record({
  effects: fc.array(
    fc.record({
      toolId: fc.constantFrom(...Object.keys(REGISTRY.tools), 'custom-shell'),
      declared: fc.option(fc.constantFrom(...CLASSES), { nil: null, freq: 2 }),
      lease: fc.option(fc.record({ pool: fc.nat(1), token: fc.integer({ min: 1, max: 9 }), expired: fc.constantFrom(false, false, true) }), { nil: null, freq: 2 }),
      process: fc.constantFrom('ended', 'ended', 'ended', 'alive_same', 'replacement_exists', 'unknown'),
      receipt: fc.constantFrom('world', 'world', 'world', 'unavailable', 'ambiguous'),
    }),
    { minLength: 2, maxLength: 5 },
  ),
  late: fc.boolean(),
  resolve: fc.option(fc.record({ action: fc.constantFrom('mark_completed', 'confirm_absent_retry', 'compensate_retry', 'mark_failed'), evidence: fc.constantFrom('full', 'none') }), { nil: null, freq: 3 }),
  cancel: fc.constantFrom('none', 'before-recovery', 'after-recovery', 'after-recovery', 'empty-reason'),
});

/** The boundaries a KXM activity passes, where its kill is aimed (after an intent, after a dispatch mark, after a call). */
export const KXM_BOUNDARIES = ['after-kxm-declare', 'after-kxm-dispatch', 'after-kxm-perform', 'after-kxm-perform'];

/**
 * The dispatch fence for a batch of assignments, phase by phase: every intent, then every dispatch mark, then every call,
 * then every completion. A kill between phases leaves many effects in one state at once (intents, or lost acknowledgements).
 */
export async function kxmRun(x: Exec, runId: string, plan: KxmPlan): Promise<void> {
  x.kxmRuns.set(runId, plan);
  const declared: Array<{ i: number; effectId: string; attemptId: string }> = [];
  const now = T0 + (plan.clock?.at ?? 0);
  for (const [i] of plan.effects.entries()) {
    const v = await x.primary.op('kxm.declare', declareParams(runId, i, plan));
    await x.t.boundary('after-kxm-declare', x.primary);
    if (v.verdict === 'recorded') declared.push({ i, effectId: v.effect.effectId, attemptId: v.effect.attemptId });
  }
  const started: Array<{ i: number; effectId: string; attemptId: string; key: string }> = [];
  for (const d of declared) {
    const dispatch = await x.primary.op('kxm.dispatch', { effectId: d.effectId, attemptId: d.attemptId, now });
    await x.t.boundary('after-kxm-dispatch', x.primary);
    if (dispatch.started) started.push({ ...d, key: dispatch.idempotencyKey });
  }
  const receipts: Array<{ effectId: string; attemptId: string; receiptId: string }> = [];
  for (const s of started) {
    receipts.push({ effectId: s.effectId, attemptId: s.attemptId, receiptId: call(x, runId, s.i, plan.effects[s.i]!.toolId, s.attemptId, s.key) });
    await x.t.boundary('after-kxm-perform', x.primary);
  }
  for (const r of receipts) await x.primary.op('kxm.complete', r);
}

/** After a restart: the journal decides per effect from what the engine observed, and the engine does exactly that. */
export async function kxmRecover(x: Exec, runId: string): Promise<void> {
  const plan = x.kxmRuns.get(runId);
  if (!plan) return;
  const at = T0 + (plan.clock?.at ?? 0);
  const now = plan.late ? at + 2 * LEASE_MS : at + (plan.clock?.recoverIn ?? 1_000);
  if (plan.cancel === 'before-recovery') await x.primary.try('kxm.cancel', { runId, actor: 'operator@explore.invalid', reason: 'requested while the run was down' });
  const { effects } = await x.primary.op('kxm.list', { runId });
  for (const effect of effects) {
    const i = Number(effect.assignmentId.slice('asg-'.length));
    const spec = plan.effects[i]!;
    const receipt = observeReceipt(x, effect.toolId, effect.effectClass, effect.idempotencyKey, spec.receipt);
    const postcondition = effect.effectClass === 'workspace-mutation' ? (!COMPARABLE.has(effect.toolId) ? 'not_comparable' : x.t.world.writesFor(logical(runId, i, effect.toolId)) > 0 ? 'verified' : 'absent') : undefined;
    const decision = await x.primary.op('kxm.recover', { effectId: effect.effectId, now, observation: { process: spec.process, receipt, ...(postcondition ? { postcondition } : {}) } });
    if (decision.decision === 'start_planned_attempt') await start(x, runId, i, effect.toolId, effect.effectId, decision.attemptId, now);
    if (decision.decision === 'retry_same_key' || decision.decision === 'retry_bounded') await perform(x, runId, i, effect.toolId, effect.effectId, decision.attemptId, decision.idempotencyKey);
  }
  const retries: Array<{ i: number; toolId: string; effectId: string; attemptId: string }> = [];
  if (plan.resolve) {
    for (const effect of (await x.primary.op('kxm.list', { runId })).effects.filter((e) => e.state === 'blocked_uncertain')) {
      // The operator checks the target first: a retry is authorized only for an effect that did not land.
      const i = Number(effect.assignmentId.slice('asg-'.length));
      const landed = x.t.world.writesFor(logical(runId, i, effect.toolId)) > 0;
      const retry = plan.resolve.action === 'confirm_absent_retry' || plan.resolve.action === 'compensate_retry';
      const action = landed && retry ? 'mark_completed' : plan.resolve.action;
      const resolved = await x.primary.try('kxm.resolve', { effectId: effect.effectId, action, actor: 'operator@explore.invalid', reason: 'checked the target', evidence: plan.resolve.evidence === 'none' ? {} : evidence(action, effect.attemptId) });
      if (resolved.ok && resolved.result.state === 'intent') retries.push({ i, toolId: effect.toolId, effectId: effect.effectId, attemptId: resolved.result.attemptId });
    }
  }
  // The retry a resolution authorized, under its new attempt: after a cancellation it must not start.
  for (const r of retries) await start(x, runId, r.i, r.toolId, r.effectId, r.attemptId, now);
  if (plan.cancel === 'after-recovery' || plan.cancel === 'empty-reason') await x.primary.try('kxm.cancel', { runId, actor: 'operator@explore.invalid', reason: plan.cancel === 'empty-reason' ? ' ' : 'superseded' });
  await x.primary.op('kxm.list', { runId });
}

async function start(x: Exec, runId: string, i: number, toolId: string, effectId: string, attemptId: string, now: number): Promise<void> {
  const dispatch = await x.primary.op('kxm.dispatch', { effectId, attemptId, now });
  if (dispatch.started) await perform(x, runId, i, toolId, effectId, attemptId, dispatch.idempotencyKey);
}

async function perform(x: Exec, runId: string, i: number, toolId: string, effectId: string, attemptId: string, key: string): Promise<void> {
  await x.primary.op('kxm.complete', { effectId, attemptId, receiptId: call(x, runId, i, toolId, attemptId, key) });
}

// The call itself (fence step 6) against the world; answers its receipt id.
function call(x: Exec, runId: string, i: number, toolId: string, attemptId: string, key: string): string {
  // A read is a new call every time: only effects with side effects count as duplicates.
  const readOnly = REGISTRY.tools[toolId]?.class === 'read-only';
  const sent = x.t.world.dispatch(toolId, TARGET_TIER[toolId] ?? 3, { logicalKey: readOnly ? `${logical(runId, i, toolId)}/read-${++x.raceCount}` : logical(runId, i, toolId), idempotencyKey: key, payload: `${toolId}:${attemptId}` });
  return (JSON.parse(sent.response) as { receipt: string }).receipt;
}

function declareParams(runId: string, i: number, plan: KxmPlan): OpParams<'kxm.declare'> {
  const e = plan.effects[i]!;
  return {
    runId, stepId: 'step-a', assignmentId: `asg-${i}`, attemptId: `att-${i}`, slot: 0, toolId: e.toolId, registry: REGISTRY,
    ...(e.declared ? { declaredClass: e.declared } : {}),
    // Leases of one pool are one lease re-granted: a higher fencing token fences the lower one.
    ...(e.lease ? { lease: { leaseId: `lease-${e.lease.pool}`, fencingToken: e.lease.token, expiresAt: expiresAt(e.lease.expired, i, plan.clock) } } : {}),
  };
}

// At the dispatch (expired) or a minute after it; with a clock, at the millisecond the plan names, on its side of the dispatch.
function expiresAt(expired: boolean, i: number, clock: KxmClock | undefined): number {
  if (!clock) return expired ? T0 : T0 + LEASE_MS;
  const d = clock.expiries.length === 0 ? 0 : clock.expiries[i % clock.expiries.length]!;
  return T0 + clock.at + (expired ? -Math.abs(d) : Math.max(1, Math.abs(d)));
}

function observeReceipt(x: Exec, toolId: string, cls: KxmClass, key: string, answer: KxmPlan['effects'][number]['receipt']): OpParams<'kxm.recover'>['observation']['receipt'] {
  if (cls !== 'external-idempotent' && cls !== 'receipt-queryable') return { kind: 'not_queried' };
  if (answer !== 'world') return { kind: answer };
  const hit = x.t.world.lookupReceipt(toolId, key);
  return hit.found ? { kind: 'found', receiptId: (JSON.parse(hit.response) as { receipt: string }).receipt } : { kind: 'absent' };
}

function evidence(action: NonNullable<KxmPlan['resolve']>['action'], attemptId: string): OpParams<'kxm.resolve'>['evidence'] {
  if (action === 'mark_completed') return { receiptId: 'rcpt-operator', receiptAuthoritative: true };
  if (action === 'confirm_absent_retry') return { negativeQueryAuthoritative: true, newAttemptId: `${attemptId}-r` };
  if (action === 'compensate_retry') return { compensationReceiptId: 'comp-1', workflowAuthorized: true, newAttemptId: `${attemptId}-c` };
  return {};
}

function logical(runId: string, i: number, toolId: string): string {
  return `kxm/${runId}/asg-${i}/0/${toolId}`;
}
