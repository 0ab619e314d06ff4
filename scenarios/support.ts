// Shared building blocks for scenarios: the default run, crash phases, row lookups and byte scans.
import { isUnresolvedState, type EffectRow, type OpParams } from '../shared/protocol/schemas.js';
import type { TrialContext } from '../harness/engine/trial-context.js';
import type { JournalClient } from '../harness/engine/journal-client.js';
import type { CrashPlan } from '../harness/engine/crash-plan.js';
import { defaultCall, logicalKey, scopeKey, type NodeScript, type RunScript, type ToolCall } from '../harness/engine/model.js';
import { DEFAULT_MAPPING, deriveProjections, nodeOutput, type OutputMappingConfig } from '../harness/engine/projections.js';
import { startRun } from '../harness/engine/run-engine.js';
import { journalFiles, makeCanary, scanForCanaries } from '../harness/world/byte-scan.js';
import { scanEncodedForms } from '../harness/world/held-canaries.js';
import { scanHiddenCopies } from '../harness/secrets/hidden-copies.js';

export { defaultCall };

/** A one-node run whose node issues the given calls (default: the crash matrix's tier-3 effect at slot 0). */
export function singleNodeRun(t: TrialContext, node: Partial<NodeScript> = {}): RunScript {
  return { runId: t.rng.id('run'), nodes: [{ nodeId: 'node-a', calls: [defaultCall()], ...node }] };
}

/** Starts a driver, runs a phase on it until the planned crash, and leaves the trial ready for a restart. */
export async function crashDuring(t: TrialContext, plan: CrashPlan, phase: (client: JournalClient) => Promise<unknown>): Promise<void> {
  t.planCrash(plan);
  // The restart after the crash starts alongside this driver: the phase alone is too short to hide a start-up. This
  // driver is spawned first (driver() spawns before its first await): its hello is on the trial's path, the restart's
  // only has to be done by the kill.
  const first = t.driver();
  t.startAhead();
  const client = await first;
  await t.untilCrash(() => phase(client));
}

/** crashDuring for a fresh run from its first node. */
export async function crashDuringRun(t: TrialContext, run: RunScript, plan: CrashPlan): Promise<void> {
  await crashDuring(t, plan, (client) => startRun(t, client, run));
}

/** Every row the journal holds, content-free; resolution times are masked so same-seed outcomes compare equal. */
export async function rows(client: JournalClient): Promise<EffectRow[]> {
  const { effects } = await client.op('listEffects', {});
  return effects.map((r) => (r.resolution ? { ...r, resolution: { ...r.resolution, at: '<time>' } } : r));
}

/** The rows of one run node, by slot. */
export function nodeRows(all: readonly EffectRow[], runId: string, nodeId: string): EffectRow[] {
  return all.filter((r) => r.scope.kind === 'run' && r.scope.runId === runId && r.scope.nodeId === nodeId).sort((a, b) => a.slot - b.slot);
}

/** True for states the contract calls unresolved. */
export function isUnresolved(row: EffectRow | undefined): boolean {
  return row !== undefined && isUnresolvedState(row.state);
}

/** The logical key the target ledgers use for a run call. */
export function runEffectKey(run: RunScript, nodeId: string, call: ToolCall): string {
  return logicalKey(scopeKey(run.runId, nodeId), call);
}

/** The node output the original execution would have produced, from what the target actually answered. */
export function originalOutput(t: TrialContext, run: RunScript, node: NodeScript): unknown {
  return nodeOutput(
    node.calls.map((call) => ({
      slot: call.slot,
      projections: deriveProjections(call.toolId, t.world.responsesFor(runEffectKey(run, node.nodeId, call))[0] ?? '', node.mapping ?? DEFAULT_MAPPING),
    })),
  );
}

/**
 * Scans every file under the journal's directory (whatever it lists) and every listed file outside
 * it for canaries and returns the hit count; control scans (expected hits) are not tallied as hits.
 */
export async function scanCanaries(t: TrialContext, client: JournalClient, canaries: readonly string[], mode: 'judged' | 'control' = 'judged'): Promise<number> {
  const { files } = await client.op('files', {});
  const all = journalFiles(client.journalDir, files);
  const scan = scanForCanaries(all, canaries, client.journalDir);
  // A canary re-encoded (base64, hex, UTF-16) is the same bytes kept: counted once per canary and file, beside plain hits.
  const plain = new Set(scan.hits.map((h) => `${h.file}\0${h.canarySha256}`));
  const encoded = scanEncodedForms(all, canaries, client.journalDir).filter((h) => !plain.has(`${h.file}\0${h.canarySha256}`));
  // Split into pieces, or in a raw deflate or brotli stream: counted once per canary and file not already found.
  const found = new Set([...plain, ...encoded.map((h) => `${h.file}\0${h.canarySha256}`)]);
  const hidden = scanHiddenCopies(all, canaries, client.journalDir).filter((h) => !found.has(`${h.file}\0${h.canarySha256}`));
  const hits = scan.hits.length + encoded.length + hidden.length;
  t.tally.bytesScanned += scan.bytesScanned;
  if (mode === 'judged') t.tally.canaryHits += hits;
  return hits;
}

/** A fresh canary from the trial's seed, planted in the trial (masked in every output, watched for in driver output). */
export function canary(t: TrialContext): string {
  return t.secret(resultMarker(t));
}

/**
 * A canary from the trial's seed that is not planted as a secret: for a result the journal may hold and print (only an
 * argument secret must never leave it), whose bytes a scan looks for once the journal freed them.
 */
export function resultMarker(t: TrialContext): string {
  return makeCanary(() => t.rng.next(), t.canaryNonce);
}

/** Records the rows before the post-restart checks, as evidence in the report; their digests must have the persisted form. */
export async function snapshotBefore(t: TrialContext, client: JournalClient): Promise<EffectRow[]> {
  t.effectsBefore = await rows(client);
  expectDigestForms(t, t.effectsBefore, 'before the checks');
  return t.effectsBefore;
}

/** Records the rows at the end of the trial; their digests must have the persisted form. */
export async function snapshotAfter(t: TrialContext, client: JournalClient): Promise<EffectRow[]> {
  t.effectsAfter = await rows(client);
  expectDigestForms(t, t.effectsAfter, 'at the end');
  return t.effectsAfter;
}

/** §11's persisted digest form: `v5:` and the SHA-256 hex digest. Anything else is a legacy form. */
export const DIGEST_FORM = /^v5:[0-9a-fA-F]{64}$/;
const seededIds = new WeakMap<TrialContext, Set<string>>();

/** Plants rows as an older writer left them; their (possibly legacy) digests are exempt from the form check. */
export async function seedRows(t: TrialContext, client: JournalClient, seeded: OpParams<'seed'>['rows']): Promise<string[]> {
  const { effectIds } = await client.op('seed', { rows: seeded });
  const ids = seededIds.get(t) ?? new Set<string>();
  for (const id of effectIds) ids.add(id);
  seededIds.set(t, ids);
  return effectIds;
}

/** Every row the journal wrote itself carries a digest in the persisted form (a bare hex digest is a legacy form). */
export function expectDigestForms(t: TrialContext, all: readonly EffectRow[], when: string): boolean {
  const seeded = seededIds.get(t);
  const bad = all.filter((r) => !seeded?.has(r.effectId) && !DIGEST_FORM.test(r.argsDigest)).map((r) => `${r.effectId}:${r.argsDigest}`);
  return t.expect(`args digests ${when} have the persisted form v5:<SHA-256 hex> (effect-journal §11)`, [], bad);
}

/** The prepare the engine would send for the default call at slot 0 of a run node. */
export function defaultPrepare(t: TrialContext, runId: string, nodeId: string, call: ToolCall = defaultCall(), mapping: OutputMappingConfig = DEFAULT_MAPPING): OpParams<'prepare'> {
  return { ...callPrepare(t, { kind: 'run', runId, nodeId, attempt: 1 }, call), outputMappingConfig: { ...mapping } };
}

/** The prepare of one tool call (the default call unless given) under a correlation, as a first attempt of the engine. */
export function callPrepare(t: TrialContext, correlation: OpParams<'prepare'>['correlation'], call: ToolCall = defaultCall()): OpParams<'prepare'> {
  return {
    correlation,
    slot: call.slot,
    toolId: call.toolId,
    tier: call.tier,
    args: call.args,
    secretArgKeys: [...call.secretArgKeys],
    audit: { providerAttempt: 1, callId: t.rng.id('call'), ownerId: 'engine', generation: 0 },
  };
}
