// The §4 pre-flight gate, asked of the journal or, for a store whose gate lives in the engine, computed from its rows.
import type { EffectRow, GateDecision, RunScope, TierMode } from '../../shared/protocol/schemas.js';
import type { JournalClient } from './journal-client.js';
import type { TrialContext } from './trial-context.js';

type GateEffect = GateDecision['effects'][number];

/** The harness-side gate (`capabilities.gate: "harness"`): §4's table over `listEffects`, the journal's own gate compared when it answers. */
export async function harnessGate(t: TrialContext, client: JournalClient, scope: RunScope, attempt: number): Promise<GateDecision> {
  const listed = await client.try('listEffects', {});
  // A gate read that fails is a refusal, not a pass (§4): the engine cannot know what the prior attempt did.
  if (!listed.ok) return readFailureRefusal(`harness-side gate: listEffects answered ${listed.code}: ${listed.message}`);
  const decided = decideGate(listed.result.effects, scope, t.capabilities.tierMode);
  // A journal that gates after all (its engine uses that gate) while claiming gate: "harness" must decide as the rows say.
  // Asked past the trial's record (as a probe, not an engine step), so the model's history holds only what the engine did.
  let own = await client.handle.call('gate', { scope, attempt });
  while (own.kind === 'crashpoint') own = await own.resume();
  if (own.kind === 'result' && own.result.decision !== decided.decision) {
    t.failConclusively(`the journal's own gate decides as the harness-side gate over its rows (capabilities.gate: "harness")`, decided.decision, own.result.decision);
  }
  return decided;
}

/** The refusal a gate read that fails is (§4: "a refusal, not a pass"), as an engine records it. */
export function readFailureRefusal(message: string): GateDecision {
  return { decision: 'refuse', effects: [], refusal: { code: 'gate_read_failed', tier: null, effectIds: [], message } };
}

/** §4's table over every row of the node, whatever its attempt; rows are reported as the journal holds them (nothing is written). */
export function decideGate(rows: readonly EffectRow[], scope: RunScope, tierMode: TierMode): GateDecision {
  const own = rows
    .filter((r) => r.scope.kind === 'run' && r.scope.runId === scope.runId && r.scope.nodeId === scope.nodeId)
    .sort((a, b) => a.slot - b.slot);
  const effects: GateEffect[] = own.map((row) => ({
    effectId: row.effectId,
    slot: row.slot,
    toolId: row.toolId,
    tier: row.tier,
    state: row.state,
    action: actionFor(row, tierMode),
    idempotencyKey: row.idempotencyKey,
  }));
  const refused = effects.filter((e) => e.action === 'needs_attention');
  const first = refused[0];
  if (first) {
    const effectIds = refused.map((e) => e.effectId);
    const message = `harness-side gate: tier ${first.tier} effect(s) ${effectIds.join(', ')} need attention${first.tier !== 3 && tierMode === 'conservative' ? ` (no tier ${first.tier} reconciler: refused like tier 3)` : ''}`;
    return { decision: 'refuse', effects, refusal: { code: 'effect_needs_attention', tier: first.tier, effectIds, message } };
  }
  const reconcile = effects.some((e) => e.action === 'retry_with_key' || e.action === 'reconcile_receipt');
  return { decision: reconcile ? 'reconcile' : 'pass', effects, refusal: null };
}

function actionFor(row: EffectRow, tierMode: TierMode): GateEffect['action'] {
  if (row.state === 'committed' && row.resultRetained) return 'replay';
  if (row.resolution?.decision === 'accepted') return 'none';
  if (row.resolution?.decision === 'discarded') return 'run_again';
  // Committed without a retained result blocks exactly like an unresolved row (§4).
  if (tierMode === 'conservative' || row.tier === 3) return 'needs_attention';
  return row.tier === 1 ? 'retry_with_key' : 'reconcile_receipt';
}
