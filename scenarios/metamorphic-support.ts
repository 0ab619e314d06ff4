// Building blocks of the metamorphic scenarios: rows made in a known state, one input varied at a time, and a real kill.
import type { EffectRow, OpParams, PrepareVerdict, RecordedResult, Tier } from '../shared/protocol/schemas.js';
import type { TrialContext } from '../harness/engine/trial-context.js';
import type { JournalClient } from '../harness/engine/journal-client.js';
import { DEFAULT_MAPPING } from '../harness/engine/projections.js';
import { describeVerdicts, verdictAllowed, type AllowedVerdict } from '../harness/model/gate-table.js';
import { rows } from './support.js';
import { proceeded } from '../harness/engine/setup-verdict.js';

export type Prepare = OpParams<'prepare'>;

/** A run prepare as the engine sends it: a public payload, one declared secret, the default mapping, first attempt. */
export function runPrepare(t: TrialContext, runId: string, nodeId: string, overrides: Partial<Prepare> = {}): Prepare {
  return {
    correlation: { kind: 'run', runId, nodeId, attempt: 1 },
    slot: 0,
    toolId: 'http_request',
    tier: 3 as Tier,
    args: { method: 'POST', url: 'https://orders.invalid/api', amount: 42, lines: [{ sku: 'a-1', qty: 2 }], apiToken: 'tok-public-test' },
    secretArgKeys: ['apiToken'],
    outputMappingConfig: { ...DEFAULT_MAPPING },
    audit: { providerAttempt: 1, callId: t.rng.id('call'), ownerId: 'engine', generation: 0 },
    ...overrides,
  };
}

/** A recorded result that names where it came from, so a replay of another row's answer is visible. */
export function resultFor(tag: string): RecordedResult {
  return { modelValue: `201 Created (${tag})`, truncated: false, summary: `POST → 201 (${tag})`, outputMappingResult: { tag } };
}

/**
 * Prepares a fresh identity and returns its effect id. Any other verdict is the journal's own failure (a fresh identity
 * proceeds, §2, §4), recorded conclusively when the trial stops: an identity the journal conflates with another shows here.
 */
export async function proceed(client: JournalClient, p: Prepare, what: string): Promise<string> {
  return proceeded(await client.op('prepare', p), what);
}

/** A fresh identity settled committed (with `result`, or without retaining one). */
export async function committedRow(client: JournalClient, p: Prepare, result: RecordedResult | null, what: string): Promise<string> {
  const id = await proceed(client, p, what);
  await client.op('settle', { effectId: id, state: 'committed', result });
  return id;
}

/** A verdict in the words an assertion compares: `proceed`, `replay`, `refuse (code)`. */
export function verdictWord(v: PrepareVerdict): string {
  return v.verdict === 'refuse' ? `refuse (${v.code})` : v.verdict;
}

/** Records that a prepare's verdict is one the model allows; a replay must carry `replayed`. */
export function expectVerdict(t: TrialContext, name: string, allowed: readonly AllowedVerdict[], v: PrepareVerdict, replayed?: RecordedResult | null): void {
  const observed = v.verdict === 'refuse' ? { verdict: v.verdict, code: v.code } : { verdict: v.verdict };
  const expected = describeVerdicts(allowed);
  t.check(name, expected.join(' | '), verdictWord(v), verdictAllowed(allowed, observed));
  if (v.verdict === 'replay' && replayed !== undefined) t.expect(`${name}: the replayed result is the recorded one`, replayed, v.result);
}

/** The rows, keyed by effect id, with what may legitimately differ between two reads (a resolution's time) masked. */
export async function rowsById(client: JournalClient): Promise<Map<string, EffectRow>> {
  return new Map((await rows(client)).map((r) => [r.effectId, r]));
}

/** Rows that differ between two reads (added, removed or changed), by effect id. */
export function changedRows(before: ReadonlyMap<string, unknown>, after: ReadonlyMap<string, unknown>): string[] {
  const ids = new Set([...before.keys(), ...after.keys()]);
  return [...ids].filter((id) => JSON.stringify(before.get(id) ?? null) !== JSON.stringify(after.get(id) ?? null)).sort();
}

/** SIGKILLs the driver's process tree now (a real crash between two requests) and starts a fresh driver on its files. */
export async function killAndRestart(t: TrialContext, client: JournalClient): Promise<JournalClient> {
  t.planCrash({ kind: 'boundary', boundary: 'after-gate' });
  await t.untilCrash(() => t.boundary('after-gate', client));
  return t.driver();
}

/** Closes the driver gracefully and starts a fresh one on the same files. */
export async function restart(t: TrialContext, client: JournalClient): Promise<JournalClient> {
  await client.close();
  return t.driver();
}
