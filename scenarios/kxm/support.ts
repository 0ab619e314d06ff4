// The KXM engine for scenarios: the dispatch fence against the target world, restarts, and recovery by the journal's decision.
import type { JournalClient } from '../../harness/engine/journal-client.js';
import { crashDuring } from '../support.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import type { KxmClass, KxmEffect, KxmRegistry, OpParams, OpResult, Tier } from '../../shared/protocol/schemas.js';

/** The trusted tool-policy registry every KXM scenario passes; workflows and tool metadata cannot change it. */
export const KXM_REGISTRY: KxmRegistry = {
  revision: 'tool-policy-r7',
  tools: {
    'kv-put': { class: 'external-idempotent', receiptQuery: 'kv-get-by-key' },
    'github-pr': { class: 'receipt-queryable', receiptQuery: 'github-pull-request-by-head' },
    'deploy-script': { class: 'unknown', receiptQuery: null },
    payment: { class: 'external-non-idempotent', receiptQuery: null },
    'git-status': { class: 'read-only', receiptQuery: null },
    format: { class: 'workspace-mutation', receiptQuery: null },
    codegen: { class: 'workspace-mutation', receiptQuery: null },
  },
};

/** The engine's clock: leases are granted at T0 and last LEASE_MS; a restart happens at T_LATE. */
export const T0 = 1_000_000;
export const LEASE_MS = 60_000;
export const T_LATE = T0 + 2 * LEASE_MS;

/** How the fake target behaves is fixed by the world: 1 dedups by key, 2 answers receipts, 3 is opaque. */
const WORLD_TIER: Record<string, Tier> = { 'kv-put': 1, 'github-pr': 2, 'deploy-script': 3, payment: 3, 'custom-shell': 3, 'git-status': 3, format: 3, codegen: 3 };

/** Workspace tools whose expected postcondition the engine can compare (formatted paths); codegen's output is not deterministic. */
const COMPARABLE_WORKSPACE = new Set(['format']);

export interface KxmSpec {
  readonly runId: string;
  readonly stepId: string;
  readonly assignmentId: string;
  readonly attemptId: string;
  readonly slot: number;
  readonly toolId: string;
  readonly declaredClass?: KxmClass;
  readonly lease?: { leaseId: string; fencingToken: number; expiresAt: number };
}

/** One effect of a fresh run (or of `runId`), with ids from the trial's seed. */
export function kxmSpec(t: TrialContext, toolId: string, extra: Partial<KxmSpec> = {}): KxmSpec {
  return { runId: t.rng.id('run'), stepId: 'step-a', assignmentId: t.rng.id('asg'), attemptId: t.rng.id('att'), slot: 0, toolId, ...extra };
}

/** A lease granted at T0 that expires LEASE_MS later. */
export function leaseFor(t: TrialContext): { leaseId: string; fencingToken: number; expiresAt: number } {
  return { leaseId: t.rng.id('lease'), fencingToken: 7, expiresAt: T0 + LEASE_MS };
}

/** Steps 2–6 of the fence without the call: the intent and the dispatch mark; answers what the call needs. */
export async function declareAndDispatch(client: JournalClient, spec: KxmSpec, now = T0): Promise<{ effectId: string; attemptId: string; idempotencyKey: string; started: boolean }> {
  const declared = await client.op('kxm.declare', declareParams(spec));
  if (declared.verdict !== 'recorded') throw new Error(`kxm.declare refused: ${declared.code}`);
  const { effectId, attemptId } = declared.effect;
  const dispatch = await client.op('kxm.dispatch', { effectId, attemptId, now });
  return { effectId, attemptId, idempotencyKey: dispatch.idempotencyKey, started: dispatch.started };
}

/** The call itself (fence step 6): one dispatch to the target world; answers its receipt id. */
export function perform(t: TrialContext, spec: KxmSpec, attemptId: string, key: string, logicalKey = kxmLogicalKey(spec)): string {
  const sent = t.world.dispatch(spec.toolId, WORLD_TIER[spec.toolId] ?? 3, { logicalKey: readKey(t, spec, logicalKey), idempotencyKey: key, payload: `${spec.toolId}:${attemptId}` });
  return receiptOf(sent.response);
}

/** The target ledger's logical key of an effect: a second physical write under it is a duplicate. */
export function kxmLogicalKey(spec: KxmSpec): string {
  return `kxm/${spec.runId}/${spec.assignmentId}/${spec.slot}/${spec.toolId}`;
}

/** The whole dispatch fence: intent, dispatch mark, the call, completion. A planned crash unwinds out of it. */
export async function runEffect(t: TrialContext, client: JournalClient, spec: KxmSpec, now = T0, onDeclared?: (effect: KxmEffect) => void): Promise<OpResult<'kxm.declare'>> {
  const declared = await client.op('kxm.declare', declareParams(spec));
  if (declared.verdict !== 'recorded') return declared;
  onDeclared?.(declared.effect);
  const { effectId, attemptId } = declared.effect;
  const dispatch = await client.op('kxm.dispatch', { effectId, attemptId, now });
  if (dispatch.started) await performAndComplete(t, client, spec, effectId, attemptId, dispatch.idempotencyKey);
  return declared;
}

/** The declare request of a spec, against the trusted registry. */
export function declareParams(spec: KxmSpec): OpParams<'kxm.declare'> {
  const { declaredClass, lease, ...ids } = spec;
  return { ...ids, registry: KXM_REGISTRY, ...(declaredClass ? { declaredClass } : {}), ...(lease ? { lease } : {}) };
}

/** Calls the target under the key and records its receipt. */
export async function performAndComplete(t: TrialContext, client: JournalClient, spec: KxmSpec, effectId: string, attemptId: string, key: string, logicalKey = kxmLogicalKey(spec)): Promise<KxmEffect> {
  return client.op('kxm.complete', { effectId, attemptId, receiptId: perform(t, spec, attemptId, key, logicalKey) });
}

/** Starts a driver, runs `phase` on it until the journal reaches `point` (its n-th time), where it is SIGKILLed. */
export async function crashAt(t: TrialContext, point: string, phase: (client: JournalClient) => Promise<unknown>, occurrence = 1): Promise<void> {
  await crashDuring(t, { kind: 'point', point, occurrence }, phase);
}

/** Runs one effect until the kill at `point`; answers the declared idempotency key when the declare answered first. */
export async function crashThenRestart(t: TrialContext, spec: KxmSpec, point: string): Promise<string | null> {
  const seen = { key: null as string | null };
  await crashAt(t, point, (client) => runEffect(t, client, spec, T0, (effect) => (seen.key = effect.idempotencyKey)));
  return seen.key;
}

export interface RecoverOptions {
  readonly now?: number;
  readonly process?: OpParams<'kxm.recover'>['observation']['process'];
  /** Forces the receipt observation (an outage or an ambiguous answer); default: query the world when the class is queryable. */
  readonly receipt?: OpParams<'kxm.recover'>['observation']['receipt'];
}

type Postcondition = NonNullable<OpParams<'kxm.recover'>['observation']['postcondition']>;

/** After a restart: asks the journal what to do with each effect of the run and does exactly that. */
export async function recoverRun(t: TrialContext, client: JournalClient, specs: readonly KxmSpec[], options: RecoverOptions = {}): Promise<Array<OpResult<'kxm.recover'>>> {
  const runId = specs[0]?.runId ?? '';
  const { effects } = await client.op('kxm.list', { runId });
  const decisions: Array<OpResult<'kxm.recover'>> = [];
  for (const effect of effects) {
    const spec = specs.find((s) => s.slot === effect.slot && s.assignmentId === effect.assignmentId);
    if (!spec) continue;
    const receipt = options.receipt ?? observeReceipt(t, spec, effect);
    const now = options.now ?? T_LATE;
    const postcondition = inspectWorkspace(t, spec, effect);
    const observation = { process: options.process ?? 'ended', receipt, ...(postcondition ? { postcondition } : {}) };
    const decision = await client.op('kxm.recover', { effectId: effect.effectId, now, observation });
    decisions.push(decision);
    // A bounded retry re-runs the same attempt: right for a read, a duplicate for anything with an effect.
    if (decision.decision === 'retry_bounded') await performAndComplete(t, client, spec, effect.effectId, decision.attemptId, decision.idempotencyKey);
    if (decision.decision === 'start_planned_attempt') await startPlanned(t, client, spec, effect.effectId, decision.attemptId, now);
    if (decision.decision === 'retry_same_key') await performAndComplete(t, client, spec, effect.effectId, decision.attemptId, decision.idempotencyKey);
  }
  return decisions;
}

/** Dispatches a planned (or resolution-authorized) attempt through the fence. */
export async function startPlanned(t: TrialContext, client: JournalClient, spec: KxmSpec, effectId: string, attemptId: string, now: number): Promise<void> {
  const dispatch = await client.op('kxm.dispatch', { effectId, attemptId, now });
  if (dispatch.started) await performAndComplete(t, client, spec, effectId, attemptId, dispatch.idempotencyKey);
}

/** The one effect of a run as the journal lists it now. */
export async function effectOf(client: JournalClient, spec: KxmSpec): Promise<KxmEffect | undefined> {
  const { effects } = await client.op('kxm.list', { runId: spec.runId });
  return effects.find((e) => e.assignmentId === spec.assignmentId && e.slot === spec.slot);
}

/** Records the world's write counts: `writes` physical writes and never a duplicate. */
export function expectWrites(t: TrialContext, writes: number): void {
  const counts = t.world.counts();
  t.expect('physical writes', writes, counts.physicalWrites);
  t.expect('duplicate writes', 0, counts.duplicateWrites);
}

/** The receipt id a target answered with. */
export function receiptOf(response: string): string {
  return (JSON.parse(response) as { receipt: string }).receipt;
}

/** The world key of the n-th call of a read-only tool: a repeated read is a new call, never a duplicate write. */
export function kxmReadKey(spec: KxmSpec, n: number): string {
  return `${kxmLogicalKey(spec)}/read-${n}`;
}

const readCalls = new WeakMap<TrialContext, Map<string, number>>();

function readKey(t: TrialContext, spec: KxmSpec, logicalKey: string): string {
  if (KXM_REGISTRY.tools[spec.toolId]?.class !== 'read-only' || logicalKey !== kxmLogicalKey(spec)) return logicalKey;
  const calls = readCalls.get(t) ?? new Map<string, number>();
  readCalls.set(t, calls);
  const n = (calls.get(logicalKey) ?? 0) + 1;
  calls.set(logicalKey, n);
  return kxmReadKey(spec, n);
}

// The engine compares the workspace only for a workspace-mutation effect: present postcondition, absent, or not comparable.
function inspectWorkspace(t: TrialContext, spec: KxmSpec, effect: KxmEffect): Postcondition | null {
  if (effect.effectClass !== 'workspace-mutation') return null;
  if (!COMPARABLE_WORKSPACE.has(spec.toolId)) return 'not_comparable';
  return t.world.writesFor(kxmLogicalKey(spec)) > 0 ? 'verified' : 'absent';
}

/** The engine queries only what the journal's class says is queryable: the class decides the reconciliation path. */
export function observeReceipt(t: TrialContext, spec: KxmSpec, effect: KxmEffect): OpParams<'kxm.recover'>['observation']['receipt'] {
  if (effect.effectClass !== 'external-idempotent' && effect.effectClass !== 'receipt-queryable') return { kind: 'not_queried' };
  const hit = t.world.lookupReceipt(spec.toolId, effect.idempotencyKey);
  return hit.found ? { kind: 'found', receiptId: receiptOf(hit.response) } : { kind: 'absent' };
}
