// The s8e section entry of an every-step scenario: the calibration batch and one compact record per killed passage.
import { z } from 'zod';
import { canonicalJson } from '../../shared/canonical-json.js';
import { S8eEntry } from './entry.js';
import { STEP_BOUNDARIES } from './steps.js';
import { S8E_LABELS, S8E_PHYSICAL_WRITES, S8E_SELECTED, S8E_STATES, tableChecks } from './table.js';
import { ACTION_STATES, type ActionState } from './types.js';

const count = z.number().int().min(0);

/** One passage of the calibration batch, and what the batch killed there and restarted showed. */
export const S8ePassageRun = z.strictObject({
  boundary: z.enum(STEP_BOUNDARIES),
  index: z.number().int().min(1),
  actionId: z.string(),
  phase: z.enum(['batch', 'readback']),
  occurrence: z.number().int().min(1),
  /** The kill point the trial recorded for this run; null when the passage was never reached. */
  kill: z.string().nullable(),
  states: z.strictObject(Object.fromEntries(ACTION_STATES.map((s) => [s, count])) as Record<ActionState, typeof count>),
  counts: z.strictObject({ dispatchAttempts: count, physicalWrites: count, duplicateWrites: count, restartWrites: count, cancelledBeforeDispatchAttempts: count }),
  labels: z.record(z.string(), z.string()),
  unknownResolvedTo: z.enum(['replayed_confirmed', 'unknown_pending_readback']).nullable(),
  /** Every S8e table check the finished batch failed, as `name: actual (needs expected)`; empty when it matched. */
  failedChecks: z.array(z.string()),
});
export type S8ePassageRun = z.infer<typeof S8ePassageRun>;

/** The zod shape of an every-step entry; strict like the single-batch entry. */
export const S8eSweepEntry = z.strictObject({
  mode: z.literal('every-step'),
  boundary: z.enum(STEP_BOUNDARIES),
  kills: count,
  calibration: S8eEntry,
  passages: z.array(S8ePassageRun),
});
export type S8eSweepEntry = z.infer<typeof S8eSweepEntry>;

/** The table checks an entry failed, in the words a passage record keeps. */
export function failedTableChecks(entry: S8eEntry): string[] {
  return tableChecks(entry)
    .filter((c) => !c.passed)
    .map((c) => `${c.name}: ${JSON.stringify(c.actual)} (needs ${JSON.stringify(c.expected)})`);
}

/** What a passed every-step scenario claims of one passage record: killed at its boundary, then exactly the S8e table. */
export function passageProblems(run: S8ePassageRun): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, message: string): void => {
    if (!ok) problems.push(message);
  };
  need(run.kill === `boundary:${run.boundary}`, `kill: is ${JSON.stringify(run.kill)}, needs "boundary:${run.boundary}"`);
  need(run.failedChecks.length === 0, `failedChecks: ${run.failedChecks.length} S8e table check(s) failed`);
  need(canonicalJson(run.states) === canonicalJson(S8E_STATES), 'states: differ from the S8e table');
  need(canonicalJson(run.labels) === canonicalJson(S8E_LABELS), 'labels: differ from the S8e fold');
  need(run.counts.physicalWrites === S8E_PHYSICAL_WRITES, `counts.physicalWrites: is ${run.counts.physicalWrites}, the S8e table needs ${S8E_PHYSICAL_WRITES}`);
  need(run.counts.duplicateWrites === 0, `counts.duplicateWrites: is ${run.counts.duplicateWrites}, the S8e table needs 0`);
  need(run.counts.restartWrites === 0, `counts.restartWrites: is ${run.counts.restartWrites}, the S8e table needs 0`);
  need(run.counts.cancelledBeforeDispatchAttempts === 0, `counts.cancelledBeforeDispatchAttempts: is ${run.counts.cancelledBeforeDispatchAttempts}, needs 0`);
  need(run.unknownResolvedTo === 'replayed_confirmed', `unknownResolvedTo: is ${JSON.stringify(run.unknownResolvedTo)}, needs "replayed_confirmed"`);
  return problems;
}

/** Internal consistency of one passage record, whatever the verdict. */
export function passageConsistency(run: S8ePassageRun): string[] {
  const problems: string[] = [];
  const sum = ACTION_STATES.reduce((n, s) => n + run.states[s], 0);
  if (sum !== S8E_SELECTED) problems.push(`states: sum to ${sum}, the batch selects ${S8E_SELECTED}`);
  const c = run.counts;
  if (!(c.duplicateWrites <= c.physicalWrites && c.physicalWrites <= c.dispatchAttempts)) problems.push('counts: need duplicateWrites <= physicalWrites <= dispatchAttempts');
  if (c.restartWrites > c.duplicateWrites) problems.push('counts: restartWrites exceed duplicateWrites');
  return problems;
}
