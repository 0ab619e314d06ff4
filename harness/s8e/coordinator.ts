// The S8e effect coordinator: policy first, then prepare → dispatch → settle through the journal, then independent read-back.
import type { JournalClient } from '../engine/journal-client.js';
import type { TrialContext } from '../engine/trial-context.js';
import { deriveProjections } from '../engine/projections.js';
import type { PrepareRequest, RecordedResult } from '../../shared/protocol/schemas.js';
import type { S8eFixture, SelectedAction } from './fixture.js';
import { foldReceipts, type BatchFold } from './fold.js';
import type { EffectIntent } from './intent.js';
import { decideAction } from './policy.js';
import { resolveUnknowns } from './resolve-unknowns.js';
import { coordinatorContext, readBack, retryWithStoredKey, rowState, S8E_MAPPING, type BatchOptions, type CoordinatorContext } from './steps.js';
import type { ActionOutcome, UnknownResolution } from './types.js';

export interface BatchResult {
  readonly outcomes: ActionOutcome[];
  readonly fold: BatchFold;
  readonly resolutions: UnknownResolution[];
}

/** Runs (or resumes, from the coordinator's durable log) the whole batch against one driver. */
export async function runBatch(t: TrialContext, client: JournalClient, fixture: S8eFixture, options: BatchOptions = {}): Promise<BatchResult> {
  const c = coordinatorContext(t, client, fixture, options);
  const recorded = c.log.outcomes();
  const outcomes: ActionOutcome[] = [];
  for (const [i, action] of fixture.actions.entries()) {
    const index = i + 1;
    const prior = recorded.get(index);
    if (prior) {
      outcomes.push(prior);
      continue;
    }
    const decision = decideAction(fixture, action, outcomes);
    const outcome =
      decision.kind === 'stop'
        ? { ...base(index, action), state: decision.state, reason: decision.reason, denial: decision.denial }
        : action.cancel === 'after_dispatch'
          ? await executeCancelled(c, index, action, decision.intent)
          : await executeWrite(c, index, action, decision.intent, decision.replayOf);
    c.log.append({ type: 'outcome', outcome });
    outcomes.push(outcome);
    await c.announce('after-tool-result', index, 'batch');
  }
  // The fold is closed over confirmed receipts before any unknown is read back: an unknown never enters it.
  const fold = foldReceipts(outcomes);
  const resolutions = await resolveUnknowns(c, outcomes);
  return { outcomes, fold, resolutions };
}

async function executeWrite(c: CoordinatorContext, index: number, action: SelectedAction, intent: EffectIntent, replayOf: string | null): Promise<ActionOutcome> {
  const at = { ...base(index, action), intentKey: intent.intentKey, resource: intent.resource, label: intent.label };
  const gate = await c.client.op('gate', { scope: intent.scope, attempt: 1 });
  if (gate.decision === 'refuse') return { ...at, state: 'refused', reason: gate.refusal?.message ?? 'gate refused', journalState: await rowState(c, intent) };
  if (gate.decision === 'reconcile') await retryWithStoredKey(c, index, intent, gate, 'batch');
  let key = gate.effects[0]?.idempotencyKey ?? null;
  const verdict = await c.client.op('prepare', prepareParams(c, action, intent));
  await c.announce('after-prepare', index, 'batch');
  if (verdict.verdict === 'refuse') return { ...at, state: 'refused', reason: `prepare refused: ${verdict.code}`, journalState: await rowState(c, intent) };
  let recorded: RecordedResult | null = null;
  if (verdict.verdict === 'proceed') {
    key = verdict.idempotencyKey ?? null;
    c.log.append({ type: 'dispatch', index, phase: 'batch' });
    const sent = c.t.world.dispatch(c.fixture.target, 1, { logicalKey: intent.logicalKey, idempotencyKey: key, payload: intent.payload });
    await c.announce('after-dispatch', index, 'batch');
    const settled = await c.client.try('settle', { effectId: verdict.effectId, state: 'committed', result: deriveProjections(intent.operation, sent.response, S8E_MAPPING) });
    if (!settled.ok) return { ...at, state: 'refused', reason: `settle failed: ${settled.code}`, journalState: await rowState(c, intent) };
    await c.announce('after-settle', index, 'batch');
  } else {
    recorded = verdict.result;
  }
  // Only an independent read-back confirms; the journal's own record must agree with it, never replace it.
  const receipt = readBack(c, intent, key);
  const journalState = await rowState(c, intent);
  const confirmed = receipt !== null && journalState === 'committed' && (recorded === null || recorded.outputMappingResult === receipt);
  if (!confirmed) return { ...at, state: 'readback_unconfirmed', reason: 'no matching receipt on the target ledger, or the journal disagrees', journalState };
  return { ...at, state: replayOf ? 'idempotent_replay_confirmed' : 'confirmed', reason: replayOf ? `idempotent replay of ${replayOf}` : null, receipt, journalState };
}

// Cancellation after dispatch only stops waiting: the row is settled ambiguous and the effect stays unknown.
async function executeCancelled(c: CoordinatorContext, index: number, action: SelectedAction, intent: EffectIntent): Promise<ActionOutcome> {
  const at = { ...base(index, action), intentKey: intent.intentKey, resource: intent.resource, label: intent.label };
  const reason = 'cancelled after dispatch: the write may have landed; pending read-back';
  const gate = await c.client.op('gate', { scope: intent.scope, attempt: 1 });
  const existing = gate.effects[0];
  if (existing === undefined) {
    const verdict = await c.client.op('prepare', prepareParams(c, action, intent));
    await c.announce('after-prepare', index, 'batch');
    if (verdict.verdict !== 'proceed') return { ...at, state: 'refused', reason: `prepare answered ${verdict.verdict}`, journalState: await rowState(c, intent) };
    c.log.append({ type: 'dispatch', index, phase: 'batch' });
    if (!action.dispatchLost) c.t.world.dispatch(c.fixture.target, 1, { logicalKey: intent.logicalKey, idempotencyKey: verdict.idempotencyKey ?? null, payload: intent.payload });
    await c.announce('after-dispatch', index, 'batch');
    await c.client.op('settle', { effectId: verdict.effectId, state: 'ambiguous', reason });
    await c.announce('after-settle', index, 'batch');
  } else if (existing.state === 'prepared') {
    // Killed before the ambiguous settle: whether the dispatch happened is exactly what is unknown.
    await c.client.op('settle', { effectId: existing.effectId, state: 'ambiguous', reason });
    await c.announce('after-settle', index, 'batch');
  }
  return { ...at, state: 'unknown_pending_readback', reason, journalState: await rowState(c, intent) };
}

/** The prepare the coordinator sends for one bound intent (tier 1, the label mapping, audit naming the driver generation). */
export function prepareParams(c: CoordinatorContext, action: SelectedAction, intent: EffectIntent): PrepareRequest {
  const generation = c.t.tally.restarts;
  return {
    correlation: { kind: 'run', runId: intent.scope.runId, nodeId: intent.scope.nodeId, attempt: 1 },
    slot: 0,
    toolId: intent.operation,
    tier: 1,
    args: { ...intent.args },
    secretArgKeys: [],
    outputMappingConfig: { ...S8E_MAPPING },
    audit: { providerAttempt: 1, callId: `${action.id}.g${generation}`, ownerId: 's8e-controller', generation },
  };
}

function base(index: number, action: SelectedAction): ActionOutcome {
  return { index, actionId: action.id, state: 'refused', reason: null, denial: null, intentKey: null, resource: null, label: null, receipt: null, journalState: null };
}
