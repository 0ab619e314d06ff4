// The engine's run path: §7 dispatch order, the pre-flight resume gate (§4), replay, and the terminal sweep.
import type { GateDecision, PrepareVerdict, RecordedResult, RunScope } from '../../shared/protocol/schemas.js';
import { JournalOpError, type JournalClient } from './journal-client.js';
import { readFailureRefusal } from './harness-gate.js';
import { logicalKey, payloadOf, scopeKey, type NodeScript, type RunScript, type ToolCall } from './model.js';
import { DEFAULT_MAPPING, deriveProjections, nodeOutput } from './projections.js';
import { nodePrepare } from './node-prepare.js';
import type { TrialContext } from './trial-context.js';

export interface RunOutcome {
  status: 'completed' | 'failed';
  errorCode: string | null;
  gates: GateDecision[];
  verdicts: Array<{ nodeId: string; slot: number; verdict: PrepareVerdict }>;
  outputs: Record<string, unknown>;
  /** What each slot's projections were when the engine emitted its tool-result. */
  delivered: Array<{ nodeId: string; slot: number; projections: RecordedResult }>;
  /** Committed rows the terminal sweep deleted. */
  swept: number;
}

/**
 * Runs a fresh run from its first node; a planned crash unwinds out of it. With `pauseAfter`, the run stops (live, not
 * terminal) after that many nodes, as a run waiting on something would; `continueRun` takes it up again.
 */
export async function startRun(t: TrialContext, client: JournalClient, run: RunScript, options: { pauseAfter?: number } = {}): Promise<RunOutcome> {
  const outcome = emptyOutcome();
  for (const [i, node] of run.nodes.entries()) {
    if (options.pauseAfter !== undefined && i >= options.pauseAfter) return outcome;
    const ok = await executeNode(t, client, run, node, node.originalAttempt ?? 1, false, outcome);
    if (!ok) return terminal(t, client, run, outcome);
  }
  return finishRun(t, client, run, outcome);
}

/** Continues a live, paused run with the nodes its log shows not completed (no gate: nothing crashed), to its terminal. */
export async function continueRun(t: TrialContext, client: JournalClient, run: RunScript): Promise<RunOutcome> {
  const outcome = emptyOutcome();
  const completed = t.log.completedNodes(run.runId);
  for (const node of run.nodes.filter((n) => !completed.has(n.nodeId))) {
    const ok = await executeNode(t, client, run, node, node.originalAttempt ?? 1, false, outcome);
    if (!ok) return terminal(t, client, run, outcome);
  }
  return finishRun(t, client, run, outcome);
}

/** The gate of every node of `run`, as a later resume's pre-flight reads it (no boundary, no tally: a read, not a resume). */
export async function gateEveryNode(client: JournalClient, run: RunScript): Promise<void> {
  for (const node of run.nodes) await client.op('gate', { scope: { kind: 'run', runId: run.runId, nodeId: node.nodeId }, attempt: 1 });
}

/** Resumes a run from the engine's event log: gate every re-runnable node first, then schedule them. */
export async function resumeRun(t: TrialContext, client: JournalClient, run: RunScript): Promise<RunOutcome> {
  const outcome = emptyOutcome();
  const completed = t.log.completedNodes(run.runId);
  const rerunnable = run.nodes.filter((n) => !completed.has(n.nodeId));
  // Pre-flight: nothing is scheduled until every re-runnable node's prior effects are resolved.
  for (const node of rerunnable) {
    const decision = await gateNode(t, client, run, node, outcome);
    if (decision !== 'pass') {
      outcome.status = 'failed';
      outcome.errorCode = 'effect_needs_attention';
      t.log.append({ type: 'run:failed', runId: run.runId, code: 'effect_needs_attention' });
      return terminal(t, client, run, outcome);
    }
  }
  for (const node of rerunnable) {
    const ok = await executeNode(t, client, run, node, 1, true, outcome);
    if (!ok) return terminal(t, client, run, outcome);
  }
  return finishRun(t, client, run, outcome);
}

async function gateNode(t: TrialContext, client: JournalClient, run: RunScript, node: NodeScript, outcome: RunOutcome): Promise<'pass' | 'refuse'> {
  const scope = { kind: 'run' as const, runId: run.runId, nodeId: node.nodeId };
  let decision = await gateOrReadFailure(client, scope);
  outcome.gates.push(decision);
  await t.boundary('after-gate', client);
  if (decision.decision === 'reconcile') {
    for (const effect of decision.effects) {
      const call = node.calls.find((c) => c.slot === effect.slot && c.toolId === effect.toolId);
      if (!call || effect.action === 'replay' || effect.action === 'none' || effect.action === 'run_again') continue;
      if (effect.action === 'needs_attention') continue;
      await reconcileEffect(t, client, run, node, call, effect.effectId, effect.action, effect.idempotencyKey);
    }
    decision = await client.op('gate', { scope: scope, attempt: 1 });
    outcome.gates.push(decision);
    await t.boundary('after-gate', client);
  }
  if (decision.decision === 'refuse') t.tally.refusals += 1;
  return decision.decision === 'pass' ? 'pass' : 'refuse';
}

/**
 * The journal's gate; while its read is made to fail (gate_read_fails), an error answer is the refusal gate_read_failed
 * as an engine reads it (§4: "A gate read that fails is a refusal, not a pass"), the same as the harness-side gate makes
 * of a failed listEffects. Without the fault an error stays an error: the gate table wants each row's action.
 */
async function gateOrReadFailure(client: JournalClient, scope: RunScope): Promise<GateDecision> {
  const answer = await client.try('gate', { scope, attempt: 1 });
  if (answer.ok) return answer.result;
  if (!client.faultsOn.has('gate_read_fails')) throw new JournalOpError('gate', answer.code, answer.message);
  return readFailureRefusal(`the gate answered ${answer.code}: ${answer.message}`);
}

async function reconcileEffect(
  t: TrialContext,
  client: JournalClient,
  run: RunScript,
  node: NodeScript,
  call: ToolCall,
  effectId: string,
  action: 'retry_with_key' | 'reconcile_receipt',
  key: string | null,
): Promise<void> {
  const mapping = node.mapping ?? DEFAULT_MAPPING;
  const lk = logicalKey(scopeKey(run.runId, node.nodeId), call);
  if (action === 'retry_with_key') {
    // A tier-1 retry is safe only under the key stored at prepare (§2, §4); without it nothing may be retried.
    t.allow(`gate hands back the stored idempotency key for the tier-1 retry of ${effectId}`, 'a key', key, key !== null);
    if (key === null) return;
    const sent = t.world.dispatch(call.target, 1, { logicalKey: lk, idempotencyKey: key, payload: payloadOf(call), ...responseOf(call) });
    await t.boundary('after-reconcile-dispatch', client);
    await client.op('reconcile', { effectId, evidence: { kind: 'retried_with_key', result: deriveProjections(call.toolId, sent.response, mapping) } });
    await t.boundary('after-reconcile', client);
    return;
  }
  const receipt = t.world.receiptFor(call.target, lk);
  if (receipt.found) {
    await client.op('reconcile', { effectId, evidence: { kind: 'receipt_found', result: deriveProjections(call.toolId, receipt.response, mapping) } });
    await t.boundary('after-reconcile', client);
    return;
  }
  const answer = await client.op('reconcile', { effectId, evidence: { kind: 'receipt_absent' } });
  await t.boundary('after-reconcile', client);
  if (!answer.execute) return;
  const sent = t.world.dispatch(call.target, 2, { logicalKey: lk, idempotencyKey: answer.execute.idempotencyKey, payload: payloadOf(call), ...responseOf(call) });
  await t.boundary('after-reconcile-dispatch', client);
  await client.op('settle', { effectId, state: 'committed', result: deriveProjections(call.toolId, sent.response, mapping) });
  await t.boundary('after-reconcile-settle', client);
}

// The generated response shape travels with the call; the fixed matrix's calls have none.
function responseOf(call: ToolCall): { response?: NonNullable<ToolCall['response']> } {
  return call.response ? { response: call.response } : {};
}

// One node through §7: prepare → dispatch → settle → tool-result → node:completed. Returns false when the run failed.
async function executeNode(
  t: TrialContext,
  client: JournalClient,
  run: RunScript,
  node: NodeScript,
  attempt: number,
  isRerun: boolean,
  outcome: RunOutcome,
): Promise<boolean> {
  t.log.append({ type: 'node:started', runId: run.runId, nodeId: node.nodeId, attempt });
  const calls = isRerun && node.rerunCalls ? node.rerunCalls : node.calls;
  const mapping = (isRerun ? node.rerunMapping : undefined) ?? node.mapping ?? DEFAULT_MAPPING;
  const results: Array<{ slot: number; projections: RecordedResult }> = [];
  for (const call of calls) {
    const verdict = await client.op('prepare', nodePrepare(t, run.runId, node.nodeId, call, { attempt, mapping, owner: `engine-${client.label}`, generation: t.tally.restarts }));
    outcome.verdicts.push({ nodeId: node.nodeId, slot: call.slot, verdict });
    await t.boundary('after-prepare', client);
    let projections: RecordedResult;
    if (verdict.verdict === 'refuse') {
      t.tally.refusals += 1;
      return failRun(t, run, node, outcome, `effect_refused:${verdict.code}`);
    } else if (verdict.verdict === 'replay') {
      t.tally.replays += 1;
      projections = verdict.result;
    } else {
      const lk = logicalKey(scopeKey(run.runId, node.nodeId), call);
      const key = verdict.idempotencyKey ?? null;
      if (call.tier === 1) t.allow(`tier-1 prepare of slot ${call.slot} hands out an idempotency key`, 'a key', key, key !== null);
      const sent = t.world.dispatch(call.target, call.tier, { logicalKey: lk, idempotencyKey: key, payload: payloadOf(call), ...responseOf(call) });
      await t.boundary('after-dispatch', client);
      if (node.timeoutSlots?.includes(call.slot)) {
        await client.op('settle', { effectId: verdict.effectId, state: 'ambiguous', reason: 'target did not answer' });
        return failRun(t, run, node, outcome, 'effect_needs_attention');
      }
      projections = deriveProjections(call.toolId, sent.response, mapping);
      const settled = await client.try('settle', {
        effectId: verdict.effectId,
        state: 'committed',
        result: node.retainResult === false ? null : projections,
      });
      // A failed settle is never retried: the row stays prepared and a human must look (§7 step 4).
      if (!settled.ok) return failRun(t, run, node, outcome, 'effect_needs_attention');
      await t.boundary('after-settle', client);
    }
    results.push({ slot: call.slot, projections });
    outcome.delivered.push({ nodeId: node.nodeId, slot: call.slot, projections });
    t.log.append({ type: 'tool-result', runId: run.runId, nodeId: node.nodeId, slot: call.slot, projections });
    await t.boundary('after-tool-result', client);
  }
  const output = nodeOutput(results);
  outcome.outputs[node.nodeId] = output;
  t.log.append({ type: 'node:completed', runId: run.runId, nodeId: node.nodeId, output });
  await t.boundary('after-node-completed', client);
  return true;
}

async function finishRun(t: TrialContext, client: JournalClient, run: RunScript, outcome: RunOutcome): Promise<RunOutcome> {
  outcome.status = 'completed';
  t.log.append({ type: 'run:completed', runId: run.runId });
  return terminal(t, client, run, outcome);
}

// Any terminal (completed or failed) ends resumability, so the run's committed rows go; unresolved rows stay.
async function terminal(t: TrialContext, client: JournalClient, run: RunScript, outcome: RunOutcome): Promise<RunOutcome> {
  outcome.swept = (await client.op('runTerminal', { runId: run.runId })).deleted;
  await t.boundary('after-run-terminal', client);
  return outcome;
}

function failRun(t: TrialContext, run: RunScript, node: NodeScript, outcome: RunOutcome, code: string): false {
  outcome.status = 'failed';
  outcome.errorCode = code;
  t.log.append({ type: 'node:failed', runId: run.runId, nodeId: node.nodeId, code, retryable: false });
  t.log.append({ type: 'run:failed', runId: run.runId, code });
  return false;
}

function emptyOutcome(): RunOutcome {
  return { status: 'failed', errorCode: null, gates: [], verdicts: [], outputs: {}, delivered: [], swept: 0 };
}
