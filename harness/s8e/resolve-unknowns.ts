// After the batch: each unknown is replayed under its stored key (the tier-1 target deduplicates) and read back.
import { readBack, retryWithStoredKey, rowState, type CoordinatorContext } from './steps.js';
import { decideAction } from './policy.js';
import type { ActionOutcome, UnknownResolution } from './types.js';

/** Resolves every unknown_pending_readback outcome; a resolution is confirmed only by the target's ledger. */
export async function resolveUnknowns(c: CoordinatorContext, outcomes: readonly ActionOutcome[]): Promise<UnknownResolution[]> {
  const recorded = c.log.resolutions();
  const resolutions: UnknownResolution[] = [];
  for (const outcome of outcomes) {
    if (outcome.state !== 'unknown_pending_readback') continue;
    const prior = recorded.get(outcome.index);
    if (prior) {
      resolutions.push(prior);
      continue;
    }
    const action = c.fixture.actions[outcome.index - 1]!;
    // The same policy over the same earlier outcomes binds the same intent it bound during the batch.
    const decision = decideAction(c.fixture, action, outcomes.slice(0, outcome.index - 1));
    if (decision.kind !== 'execute') throw new Error(`unknown ${outcome.actionId} no longer binds an intent`);
    const intent = decision.intent;
    const writesBefore = c.t.world.writesFor(intent.logicalKey);
    const gate = await c.client.op('gate', { scope: intent.scope, attempt: 1 });
    if (gate.decision === 'reconcile') await retryWithStoredKey(c, outcome.index, intent, gate, 'readback');
    const receipt = readBack(c, intent, gate.effects[0]?.idempotencyKey ?? null);
    const journalStateAfter = await rowState(c, intent);
    const physicalWritesForIntent = c.t.world.writesFor(intent.logicalKey);
    const resolution: UnknownResolution = {
      index: outcome.index,
      actionId: outcome.actionId,
      from: 'unknown_pending_readback',
      to: receipt !== null && journalStateAfter === 'committed' ? 'replayed_confirmed' : 'unknown_pending_readback',
      journalStateAfter,
      receipt,
      writesDuringReadback: physicalWritesForIntent - writesBefore,
      physicalWritesForIntent,
    };
    c.log.append({ type: 'resolution', resolution });
    resolutions.push(resolution);
    await c.announce('after-tool-result', outcome.index, 'readback');
  }
  return resolutions;
}
