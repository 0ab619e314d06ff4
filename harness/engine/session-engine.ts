// The engine's session path: turns with journaled calls, the atomic transcript write, and resume = read → notice → sweep.
import type { CapturedRow, Disclosure, EffectRow, EffectState, SessionReadResult, SessionSweepResult, TranscriptTurn } from '../../shared/protocol/schemas.js';
import type { JournalClient } from './journal-client.js';
import { logicalKey, payloadOf, sessionScopeKey, type ToolCall } from './model.js';
import { DEFAULT_MAPPING, deriveProjections } from './projections.js';
import type { TrialContext } from './trial-context.js';

export interface TurnScript {
  readonly turn: number;
  readonly calls: readonly ToolCall[];
  /** How the turn ends; `missing_terminal` and a crash leave no completed exchange. */
  readonly status?: TranscriptTurn['status'];
  readonly compacted?: boolean;
  /** Calls whose target never answers: settled ambiguous. */
  readonly timeoutSlots?: readonly number[];
  /** Calls the engine prepares but never dispatches (the turn dies first). */
  readonly unsettledSlots?: readonly number[];
  /** Override the transcript's recorded call id/name for a slot (attribution anomalies, legacy placeholders). */
  readonly transcriptCalls?: ReadonlyArray<{ callId: string; toolName: string }>;
  /** Calls dispatched now but settled only when the turn finishes (a turn still running elsewhere: post-read commits). */
  readonly deferredSlots?: readonly number[];
  /** The engine call id of each slot (generated trials: legacy placeholders); default a fresh seeded id. */
  readonly callIds?: Readonly<Record<number, string>>;
}

/** A turn whose deferred calls and transcript write are still to come. */
export interface OpenTurn {
  readonly verdicts: Array<{ slot: number; callId: string; verdict: string }>;
  /** Settles the deferred calls, then writes the transcript (atomic, at the end of the turn). */
  finish(client: JournalClient): Promise<void>;
}

export interface ResumeOptions {
  /** The notice cannot be delivered (a failed stderr write): evidence must be kept. */
  readonly noticeFails?: boolean;
  /** Leave the sweep for later (a slow chat process): the outcome's `sweepLater` performs it. */
  readonly deferSweep?: boolean;
}

/** One disclosed effect as the notice names it: its address and state (by row id or named directly), and the reason given. */
export interface Disclosed {
  readonly address: string;
  readonly state: EffectState | null;
  readonly reason: string;
}

export interface ResumeOutcome {
  read: SessionReadResult | null;
  readError: string | null;
  sweep: SessionSweepResult | null;
  sweepError: string | null;
  disclosed: Disclosed[];
  /** With deferSweep: sweeps exactly what this resume's read captured, whenever the engine gets to it. */
  sweepLater?: (client: JournalClient) => Promise<void>;
}

/** Runs one session turn: prepare/dispatch/settle per call, then the transcript write (atomic, at the end). */
export async function runTurn(t: TrialContext, client: JournalClient, sessionId: string, script: TurnScript): Promise<Array<{ slot: number; callId: string; verdict: string }>> {
  const open = await startTurn(t, client, sessionId, script);
  await open.finish(client);
  return open.verdicts;
}

/** Runs a turn up to its deferred settles; `finish` completes it. */
export async function startTurn(t: TrialContext, client: JournalClient, sessionId: string, script: TurnScript): Promise<OpenTurn> {
  const recorded: Array<{ callId: string; toolName: string }> = [];
  const out: Array<{ slot: number; callId: string; verdict: string }> = [];
  const deferred: Array<{ effectId: string; call: ToolCall; callId: string; response: string }> = [];
  for (const call of script.calls) {
    const callId = script.callIds?.[call.slot] ?? `eng-${sessionId}-${script.turn}-${call.slot}-${t.rng.int(1_000_000)}`;
    const verdict = await client.op('prepare', {
      correlation: { kind: 'session', sessionId, turn: script.turn },
      slot: call.slot,
      toolId: call.toolId,
      tier: call.tier,
      args: call.args,
      secretArgKeys: [...call.secretArgKeys],
      audit: { providerAttempt: 1, callId, ownerId: `engine-${client.label}`, generation: t.tally.restarts },
    });
    out.push({ slot: call.slot, callId, verdict: verdict.verdict === 'refuse' ? `refuse:${verdict.code}` : verdict.verdict });
    if (verdict.verdict !== 'proceed') {
      if (verdict.verdict === 'refuse') t.tally.refusals += 1;
      continue;
    }
    await t.boundary('after-turn-prepare', client);
    if (script.unsettledSlots?.includes(call.slot)) continue;
    const sent = t.world.dispatch(call.target, call.tier, {
      logicalKey: logicalKey(sessionScopeKey(sessionId, script.turn), call),
      idempotencyKey: verdict.idempotencyKey ?? null,
      payload: payloadOf(call),
      ...(call.response ? { response: call.response } : {}),
    });
    await t.boundary('after-turn-dispatch', client);
    if (script.timeoutSlots?.includes(call.slot)) {
      await client.op('settle', { effectId: verdict.effectId, state: 'ambiguous', reason: 'target did not answer' });
      continue;
    }
    if (script.deferredSlots?.includes(call.slot)) {
      deferred.push({ effectId: verdict.effectId, call, callId, response: sent.response });
      continue;
    }
    // A session never retains results; the engine offers one anyway so a journal that keeps it is caught.
    await client.op('settle', { effectId: verdict.effectId, state: 'committed', result: deriveProjections(call.toolId, sent.response, DEFAULT_MAPPING) });
    recorded.push({ callId, toolName: call.toolId });
    await t.boundary('after-turn-settle', client);
  }
  const finish = async (late: JournalClient): Promise<void> => {
    for (const d of deferred) {
      await late.op('settle', { effectId: d.effectId, state: 'committed', result: deriveProjections(d.call.toolId, d.response, DEFAULT_MAPPING) });
      recorded.push({ callId: d.callId, toolName: d.call.toolId });
      await t.boundary('after-turn-settle', late);
    }
    t.log.append({
      type: 'session:turn',
      sessionId,
      turn: script.turn,
      status: script.status ?? 'completed',
      compacted: script.compacted ?? false,
      calls: script.transcriptCalls ? [...script.transcriptCalls] : recorded,
    });
  };
  return { verdicts: out, finish };
}

/** The transcript as the engine's durable log holds it: every historical exchange. */
export function transcriptOf(t: TrialContext, sessionId: string): TranscriptTurn[] {
  return t.log
    .ofType('session:turn')
    .filter((e) => e.sessionId === sessionId)
    .map((e) => ({ turn: e.turn, status: e.status as TranscriptTurn['status'], compacted: e.compacted, calls: e.calls }));
}

/** One chat-resume: read one snapshot, publish the notice, then sweep exactly the captured rows. */
export async function resumeSession(t: TrialContext, client: JournalClient, sessionId: string, options: ResumeOptions = {}): Promise<ResumeOutcome> {
  const outcome: ResumeOutcome = { read: null, readError: null, sweep: null, sweepError: null, disclosed: [] };
  const read = await client.try('sessionRead', { sessionId, transcript: transcriptOf(t, sessionId) });
  if (!read.ok) {
    outcome.readError = read.code;
    return outcome;
  }
  outcome.read = read.result;
  await t.boundary('after-session-read', client);
  const byId = new Map(read.result.effects.map((e) => [e.effectId, e]));
  outcome.disclosed = read.result.disclosures.map((d) => disclosedOf(d, byId, sessionId));
  if (options.noticeFails) return outcome;
  const resume = t.log.ofType('session:notice').filter((n) => n.sessionId === sessionId).length + 1;
  t.log.append({ type: 'session:notice', sessionId, resume, disclosures: outcome.disclosed });
  t.note({ kind: 'notice', sessionId, effectIds: read.result.disclosures.map((d, i) => d.effectId ?? outcome.disclosed[i]!.address) });
  t.tally.disclosures += outcome.disclosed.length;
  t.record.disclosure(client.label, outcome.disclosed.length);
  await t.boundary('after-session-notice', client);
  const sweepNow = async (sweeper: JournalClient): Promise<void> => {
    const sweep = await sweeper.try('sessionSweep', { sessionId, captured: read.result.captured });
    if (sweep.ok) outcome.sweep = sweep.result;
    else outcome.sweepError = sweep.code;
    await t.boundary('after-session-sweep', sweeper);
  };
  if (options.deferSweep) outcome.sweepLater = sweepNow;
  else await sweepNow(client);
  return outcome;
}

/** How many published notices named an effect address, across every resume so far. */
export function noticesFor(t: TrialContext, sessionId: string, address: string): number {
  return t.log
    .ofType('session:notice')
    .filter((n) => n.sessionId === sessionId)
    .filter((n) => n.disclosures.some((d) => d.address === address)).length;
}

/** The stable address of a session row (turn/slot/tool): physical ids may be reused, addresses are not. */
export function sessionAddress(turn: number, slot: number, toolId: string): string {
  return `t${turn}/s${slot}/${toolId}`;
}

/** A captured row as the engine would hand it back to sweep. */
export function captured(effectId: string, sessionId: string, turn: number, slot: number, toolId: string): CapturedRow {
  return { effectId, sessionId, turn, slot, toolId, state: 'committed' };
}

// Disclosures are matched by effect address and state (§8): a journal may name them without its row id.
function disclosedOf(d: Disclosure, byId: ReadonlyMap<string, EffectRow>, sessionId: string): Disclosed {
  const row = d.effectId === undefined ? undefined : byId.get(d.effectId);
  const named = d.scope !== undefined && d.slot !== undefined && d.toolId !== undefined ? { scope: d.scope, slot: d.slot, toolId: d.toolId } : null;
  const from = named ?? (row && row.scope.kind === 'session' ? { scope: row.scope, slot: row.slot, toolId: row.toolId } : null);
  const address = from === null ? `id:${d.effectId ?? '?'}` : `${from.scope.sessionId === sessionId ? '' : `${from.scope.sessionId}:`}${sessionAddress(from.scope.turn, from.slot, from.toolId)}`;
  const state = d.state ?? row?.state ?? null;
  // A row id and an address that name two different effects is no disclosure of either.
  const agrees = named === null || row === undefined || (row.scope.kind === 'session' && row.scope.sessionId === named.scope.sessionId && row.scope.turn === named.scope.turn && row.slot === named.slot && row.toolId === named.toolId && (d.state === undefined || d.state === row.state));
  return { address: agrees ? address : `conflict:${d.effectId}/${address}`, state, reason: d.reason };
}
