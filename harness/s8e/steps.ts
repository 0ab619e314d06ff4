// The coordinator's shared steps: its context, step boundaries, independent read-back and tier-1 recovery.
import { join } from 'node:path';
import type { JournalClient } from '../engine/journal-client.js';
import type { TrialContext } from '../engine/trial-context.js';
import { deriveProjections } from '../engine/projections.js';
import type { EffectState, GateDecision } from '../../shared/protocol/schemas.js';
import { BatchLog } from './batch-log.js';
import type { S8eFixture } from './fixture.js';
import type { EffectIntent } from './intent.js';

/** Where a step boundary is: which action, in the batch pass or in the later read-back of an unknown. */
export type StepPhase = 'batch' | 'readback';
/** Every step boundary the coordinator announces, in the order one write passes them. */
export const STEP_BOUNDARIES = ['after-prepare', 'after-dispatch', 'after-settle', 'after-tool-result'] as const;
export type StepBoundary = (typeof STEP_BOUNDARIES)[number];

/** One passage of the coordinator through a step boundary; `occurrence` counts equal passages before it (from 1). */
export interface StepPassage {
  readonly boundary: StepBoundary;
  readonly index: number;
  readonly phase: StepPhase;
  readonly occurrence: number;
}

export interface BatchOptions {
  /** Which step boundaries are offered to the trial's crash plan; default every one. */
  readonly crashAt?: (index: number, phase: StepPhase) => boolean;
  /** Told of every boundary passage, before the crash plan may kill there: how a calibration run enumerates them. */
  readonly onPassage?: (passage: StepPassage) => void;
}

/** What the coordinator's steps share. */
export interface CoordinatorContext {
  readonly t: TrialContext;
  readonly client: JournalClient;
  readonly fixture: S8eFixture;
  readonly log: BatchLog;
  announce(boundary: StepBoundary, index: number, phase: StepPhase): Promise<void>;
}

/** Output mapping for label receipts: the receipt field, so a replayed record can be compared with the read-back. */
export const S8E_MAPPING = { field: 'receipt', bound: 48 } as const;

/** The coordinator's context over one driver; the log lives in the trial directory so it outlives every driver. */
export function coordinatorContext(t: TrialContext, client: JournalClient, fixture: S8eFixture, options: BatchOptions = {}): CoordinatorContext {
  const seen = new Map<string, number>();
  return {
    t,
    client,
    fixture,
    log: new BatchLog(batchLogPath(t, fixture)),
    async announce(boundary, index, phase) {
      const key = `${boundary}/${index}/${phase}`;
      const occurrence = (seen.get(key) ?? 0) + 1;
      seen.set(key, occurrence);
      options.onPassage?.({ boundary, index, phase, occurrence });
      if (options.crashAt === undefined || options.crashAt(index, phase)) await t.boundary(boundary, client);
    },
  };
}

/** Where the coordinator logs one batch: one file per batch id, so several batches can share a trial directory. */
export function batchLogPath(t: TrialContext, fixture: S8eFixture): string {
  return join(t.dir, `${fixture.batchId}.jsonl`);
}

/** Reads the target's own ledger: the receipt of a write under this key that echoes exactly the intent's payload. */
export function readBack(c: CoordinatorContext, intent: EffectIntent, key: string | null): string | null {
  if (key === null) return null;
  const found = c.t.world.lookupReceipt(c.fixture.target, key);
  if (!found.found) return null;
  const body = JSON.parse(found.response) as { echo?: unknown; receipt?: unknown };
  return body.echo === intent.payload && typeof body.receipt === 'string' ? body.receipt : null;
}

/** The state the journal lists for the intent's row, read independently of what the last operation answered. */
export async function rowState(c: CoordinatorContext, intent: EffectIntent): Promise<EffectState | null> {
  const { effects } = await c.client.op('listEffects', {});
  const row = effects.find((r) => r.scope.kind === 'run' && r.scope.runId === intent.scope.runId && r.scope.nodeId === intent.scope.nodeId);
  return row ? row.state : null;
}

/** Tier-1 recovery the gate asks for: retry under the stored key (the target deduplicates) and record the evidence. */
export async function retryWithStoredKey(c: CoordinatorContext, index: number, intent: EffectIntent, gate: GateDecision, phase: StepPhase): Promise<void> {
  for (const effect of gate.effects) {
    if (effect.action !== 'retry_with_key' || effect.idempotencyKey === null) continue;
    c.log.append({ type: 'dispatch', index, phase: phase === 'batch' ? 'recovery' : 'readback' });
    const sent = c.t.world.dispatch(c.fixture.target, 1, { logicalKey: intent.logicalKey, idempotencyKey: effect.idempotencyKey, payload: intent.payload });
    await c.announce('after-dispatch', index, phase);
    const result = deriveProjections(intent.operation, sent.response, S8E_MAPPING);
    await c.client.op('reconcile', { effectId: effect.effectId, evidence: { kind: 'retried_with_key', result } });
    await c.announce('after-settle', index, phase);
  }
}
