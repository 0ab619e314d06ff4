// The batch fold: built only from independently confirmed receipts; unknowns stay visible beside it, never inside.
import type { ActionOutcome } from './types.js';

export interface FoldedReceipt {
  readonly actionId: string;
  readonly intentKey: string;
  readonly resource: string;
  readonly label: string;
  readonly kind: 'new' | 'replay';
}

export interface BatchFold {
  readonly confirmed: FoldedReceipt[];
  /** resource → label after applying confirmed receipts in action order. */
  readonly labels: Record<string, string>;
  readonly unknown: Array<{ readonly actionId: string; readonly resource: string; readonly state: 'unknown_pending_readback' }>;
}

/** Folds the confirmed outcomes of a batch; the selector's narration is not an input and cannot enter. */
export function foldReceipts(outcomes: readonly ActionOutcome[]): BatchFold {
  const confirmed: FoldedReceipt[] = [];
  const labels: Record<string, string> = {};
  const unknown: BatchFold['unknown'] = [];
  for (const o of [...outcomes].sort((a, b) => a.index - b.index)) {
    if (o.state === 'unknown_pending_readback' && o.resource !== null) unknown.push({ actionId: o.actionId, resource: o.resource, state: o.state });
    const isConfirmed = o.state === 'confirmed' || o.state === 'idempotent_replay_confirmed';
    if (!isConfirmed || o.receipt === null || o.intentKey === null || o.resource === null || o.label === null) continue;
    confirmed.push({ actionId: o.actionId, intentKey: o.intentKey, resource: o.resource, label: o.label, kind: o.state === 'confirmed' ? 'new' : 'replay' });
    labels[o.resource] = o.label;
  }
  return { confirmed, labels, unknown };
}
