// Where a trial kills its driver: at a protocol boundary or at a crash point the implementation announces.

export type CrashPlan =
  | { readonly kind: 'boundary'; readonly boundary: BoundaryName; readonly occurrence?: number; readonly driver?: string }
  | { readonly kind: 'point'; readonly point: string; readonly occurrence?: number; readonly driver?: string };

/** Protocol boundaries the engine passes: after a response, before the next request. */
export type BoundaryName =
  | 'after-prepare'
  | 'after-dispatch'
  | 'after-settle'
  | 'after-tool-result'
  | 'after-node-completed'
  | 'after-session-read'
  | 'after-session-notice'
  | 'after-session-sweep'
  | 'after-turn-settle'
  // Passed by generated trials' kill schedules (recovery and turn steps); no fixed scenario plans them.
  | 'after-gate'
  | 'after-reconcile'
  | 'after-reconcile-dispatch'
  | 'after-reconcile-settle'
  | 'after-run-terminal'
  | 'after-turn-prepare'
  | 'after-turn-dispatch';

/** A crash plan in the words a report and a reproduce line use. */
export function describePlan(plan: CrashPlan): string {
  const at = plan.kind === 'boundary' ? `boundary:${plan.boundary}` : `point:${plan.point}`;
  return plan.occurrence && plan.occurrence > 1 ? `${at}#${plan.occurrence}` : at;
}

/**
 * The operation a crash point named by the contract belongs to (`prepare.before-commit` → prepare),
 * or null for a name that does not say (e.g. `checkpoint.before`, reached inside several operations).
 * A planned point announced during another operation is not the point the scenario needs.
 */
export function operationOfPoint(point: string): string | null {
  const kxm = /^kxm\.([a-z]+)\./.exec(point);
  if (kxm) return `kxm.${kxm[1]}`;
  const head = point.slice(0, point.indexOf('.'));
  return POINT_OPERATIONS[head] ?? null;
}

const POINT_OPERATIONS: Record<string, string> = {
  prepare: 'prepare',
  settle: 'settle',
  'run-sweep': 'runTerminal',
  'session-sweep': 'sessionSweep',
};

/** Thrown through the engine when the planned kill happened, so the phase unwinds to the scenario. */
export class CrashInjected extends Error {
  readonly code = 'crash_injected';
  constructor(readonly where: string) {
    super(`driver killed at ${where}`);
    this.name = 'CrashInjected';
  }
}
