// One scenario's contribution to the report's `sections.s8e`: states, counts, the fold and the unknown.
import { z } from 'zod';
import type { TrialContext } from '../engine/trial-context.js';
import { EffectState } from '../../shared/protocol/schemas.js';
import { canonicalJson } from '../../shared/canonical-json.js';
import { BatchLog } from './batch-log.js';
import { batchLogPath } from './steps.js';
import type { BatchResult } from './coordinator.js';
import type { S8eFixture } from './fixture.js';
import { ACTION_STATES, type ActionState } from './types.js';

const count = z.number().int().min(0);
const StateName = z.enum(ACTION_STATES);

/** The zod shape of one entry; strict, so a report cannot smuggle extra claims into it. */
export const S8eEntry = z.strictObject({
  mode: z.enum(['clean', 'crash']),
  kills: count,
  selected: count,
  states: z.strictObject(Object.fromEntries(ACTION_STATES.map((s) => [s, count])) as Record<ActionState, typeof count>),
  denials: z.strictObject({ capability: count, stage: count }),
  breaker: z.strictObject({ threshold: count, openedAfter: z.string().nullable(), notRun: count }),
  counts: z.strictObject({ dispatchAttempts: count, physicalWrites: count, duplicateWrites: count, restartWrites: count, cancelledBeforeDispatchAttempts: count }),
  unknown: z.array(
    z.strictObject({
      actionId: z.string(),
      journalState: EffectState.nullable(),
      resolvedTo: z.enum(['replayed_confirmed', 'unknown_pending_readback']).nullable(),
      journalStateAfter: EffectState.nullable(),
      writesDuringReadback: z.number().int(),
      physicalWritesForIntent: count,
    }),
  ),
  fold: z.strictObject({ confirmedReceipts: count, newWrites: count, replays: count, unknownExcluded: count, labels: z.record(z.string(), z.string()), narrationInFold: z.boolean() }),
  actions: z.array(z.strictObject({ actionId: z.string(), state: StateName, reason: z.string().nullable() })),
});
export type S8eEntry = z.infer<typeof S8eEntry>;

/** What one batch saw when it shares its trial with other batches; default: the whole trial's kills and world counts. */
export interface BatchFacts {
  readonly kills: number;
  readonly counts: WorldCounts;
}
export type WorldCounts = ReturnType<TrialContext['world']['counts']>;

/** Builds the entry from the batch result, the trial's (or the given) world counts and the coordinator's log. */
export function buildEntry(t: TrialContext, fixture: S8eFixture, result: BatchResult, facts: BatchFacts = { kills: t.kills.length, counts: t.world.counts() }): S8eEntry {
  const log = new BatchLog(batchLogPath(t, fixture));
  const states = Object.fromEntries(ACTION_STATES.map((s) => [s, 0])) as Record<ActionState, number>;
  for (const o of result.outcomes) states[o.state] += 1;
  const denied = result.outcomes.filter((o) => o.state === 'denied');
  const capabilityDenials = denied.filter((o) => o.denial === 'capability');
  const world = facts.counts;
  const foldJson = canonicalJson(result.fold);
  return {
    mode: facts.kills > 0 ? 'crash' : 'clean',
    kills: facts.kills,
    selected: result.outcomes.length,
    states,
    denials: { capability: capabilityDenials.length, stage: denied.length - capabilityDenials.length },
    breaker: { threshold: fixture.breakerThreshold, openedAfter: capabilityDenials[fixture.breakerThreshold - 1]?.actionId ?? null, notRun: states.breaker_not_run },
    counts: {
      ...world,
      cancelledBeforeDispatchAttempts: result.outcomes.filter((o) => o.state === 'cancelled_before_dispatch').reduce((n, o) => n + log.dispatches(o.index), 0),
    },
    unknown: result.outcomes
      .filter((o) => o.state === 'unknown_pending_readback')
      .map((o) => {
        const r = result.resolutions.find((x) => x.index === o.index);
        return { actionId: o.actionId, journalState: o.journalState, resolvedTo: r?.to ?? null, journalStateAfter: r?.journalStateAfter ?? null, writesDuringReadback: r?.writesDuringReadback ?? 0, physicalWritesForIntent: r?.physicalWritesForIntent ?? 0 };
      }),
    fold: {
      confirmedReceipts: result.fold.confirmed.length,
      newWrites: result.fold.confirmed.filter((r) => r.kind === 'new').length,
      replays: result.fold.confirmed.filter((r) => r.kind === 'replay').length,
      unknownExcluded: result.fold.unknown.filter((u) => !result.fold.confirmed.some((r) => r.actionId === u.actionId)).length,
      labels: result.fold.labels,
      narrationInFold: fixture.actions.some((a) => foldJson.includes(a.narration)),
    },
    actions: result.outcomes.map((o) => ({ actionId: o.actionId, state: o.state, reason: o.reason })),
  };
}
