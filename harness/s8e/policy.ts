// The controller's policy over one selected action: authority, stage, breaker, approval, cancellation, lease, pre-write.
import type { S8eFixture, SelectedAction } from './fixture.js';
import { bindIntent, type EffectIntent } from './intent.js';
import type { ActionOutcome, ActionState } from './types.js';

export type PolicyDecision =
  | { readonly kind: 'stop'; readonly state: ActionState; readonly reason: string; readonly denial: 'capability' | 'stage' | null }
  | { readonly kind: 'execute'; readonly intent: EffectIntent; readonly replayOf: string | null };

/** Decides what happens to an action before any journal operation, from the fixture and the earlier outcomes only. */
export function decideAction(fixture: S8eFixture, action: SelectedAction, earlier: readonly ActionOutcome[]): PolicyDecision {
  const authDenials = earlier.filter((o) => o.state === 'denied' && o.denial === 'capability').length;
  if (authDenials >= fixture.breakerThreshold) return stop('breaker_not_run', `breaker open after ${authDenials} authorization denials`);
  // Choosing a stage is the selector's only power; an undeclared stage cannot write.
  if (!fixture.declaredEffectStages.includes(action.stage)) return stop('denied', `stage ${action.stage} is not a declared effect stage`, 'stage');
  const grant = grantFor(fixture, action);
  if (grant === null) return stop('denied', `no grant of ${action.capability} on ${action.resource}`, 'capability');
  if (action.dryRun) return stop('dry_run', 'dry run: the intent is bound but never executed');
  if (action.approvalRequired && !fixture.approvals.includes(action.id)) return stop('approval_not_run', 'approval required and not given');
  if (action.cancel === 'before_dispatch') return stop('cancelled_before_dispatch', 'cancelled before dispatch');
  const holder = fixture.foreignLeases[action.resource];
  if (holder !== undefined) return stop('conflict', `resource lease on ${action.resource} is held by ${holder}`);
  if (action.preWriteFails) return stop('failed_before_write', 'the precondition read failed before any write');
  const intent = bindIntent(fixture, action, grant);
  const prior = earlier.find((o) => o.intentKey === intent.intentKey && (o.state === 'confirmed' || o.state === 'idempotent_replay_confirmed'));
  return { kind: 'execute', intent, replayOf: prior ? prior.actionId : null };
}

function grantFor(fixture: S8eFixture, action: SelectedAction): string | null {
  const g = fixture.grants.find((x) => x.capability === action.capability && action.resource.startsWith(x.resourcePrefix));
  return g ? `${g.capability}@${g.resourcePrefix}*` : null;
}

function stop(state: ActionState, reason: string, denial: 'capability' | 'stage' | null = null): PolicyDecision {
  return { kind: 'stop', state, reason, denial };
}
