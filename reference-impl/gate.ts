// The resume gate (§4): every row of a run node, whatever its attempt, decides whether the node may run.
import type { GateDecision, GateRequest, Tier } from '../shared/protocol/schemas.js';
import type { JournalContext } from './context.js';
import { type RowRecord } from './schema.js';
import { readTransaction, stmt, writeTransaction } from './sqlite.js';

type GateEffect = GateDecision['effects'][number];
type GateAction = GateEffect['action'];

/** Decides pass / reconcile / refuse over all rows of (runId, nodeId); unresolved tier-3 rows become needs_attention. */
export function gateNode(ctx: JournalContext, req: GateRequest): GateDecision {
  if (ctx.faults.has('gate_read_fails')) {
    // An unreadable journal is a refusal, never a pass (§4).
    return {
      decision: 'refuse',
      effects: [],
      refusal: { code: 'gate_read_failed', tier: null, effectIds: [], message: 'the effect journal could not be read; resuming is refused' },
    };
  }
  const sql = `SELECT * FROM run_effects WHERE scope_kind = 'run' AND run_id = ? AND node_id = ? ORDER BY slot, id`;
  const rows = readTransaction(ctx.db, () => stmt(ctx.db, sql).all(req.scope.runId, req.scope.nodeId) as RowRecord[]);
  const toAttention = rows.filter((r) => r.tier === 3 && r.resolution === null && (r.state === 'prepared' || r.state === 'ambiguous'));
  if (toAttention.length > 0) markNeedsAttention(ctx, toAttention);
  const moved = new Set(toAttention.map((r) => r.id));
  const effects: GateEffect[] = rows.map((row) => ({
    effectId: String(row.id),
    slot: row.slot,
    toolId: row.tool_id,
    tier: row.tier,
    state: moved.has(row.id) ? 'needs_attention' : row.state,
    action: actionFor(row, ctx.tierMode === 'reconciling'),
    idempotencyKey: row.idempotency_key,
  }));
  const refused = effects.filter((e) => e.action === 'needs_attention');
  const first = refused[0];
  if (first) {
    const effectIds = refused.map((e) => e.effectId);
    return {
      decision: 'refuse',
      effects,
      refusal: { code: 'effect_needs_attention', tier: first.tier, effectIds, message: refusalMessage(first.tier, ctx.tierMode === 'reconciling', effectIds) },
    };
  }
  const reconcile = effects.some((e) => e.action === 'retry_with_key' || e.action === 'reconcile_receipt');
  return { decision: reconcile ? 'reconcile' : 'pass', effects, refusal: null };
}

function actionFor(row: RowRecord, reconciling: boolean): GateAction {
  if (row.state === 'committed' && row.result_json !== null) return 'replay';
  if (row.resolution === 'accepted') return 'none';
  if (row.resolution === 'discarded') return 'run_again';
  // Committed without a retained result blocks exactly like an unresolved row (§4).
  if (!reconciling || row.tier === 3) return 'needs_attention';
  return row.tier === 1 ? 'retry_with_key' : 'reconcile_receipt';
}

function markNeedsAttention(ctx: JournalContext, rows: readonly RowRecord[]): void {
  const now = ctx.now();
  writeTransaction(ctx.db, () => {
    const update = stmt(
      ctx.db,
      `UPDATE run_effects SET state = 'needs_attention', updated_at = ?
         WHERE id = ? AND resolution IS NULL AND state IN ('prepared', 'ambiguous')`,
    );
    for (const row of rows) update.run(now, row.id);
  });
}

function refusalMessage(tier: Tier, reconciling: boolean, effectIds: readonly string[]): string {
  const ids = effectIds.join(', ');
  if (tier === 3) {
    return `tier 3 effect(s) ${ids} need attention: the target is opaque and is never retried; an operator must check it and resolve the row`;
  }
  const reconciler = tier === 1 ? 'retry under the stored idempotency key' : 'receipt lookup';
  return reconciling
    ? `tier ${tier} effect(s) ${ids} need attention`
    : `tier ${tier} effect(s) ${ids} need attention: the tier ${tier} reconciler (${reconciler}) is not available in conservative mode, so tier ${tier} is refused like tier 3`;
}
