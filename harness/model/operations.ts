// One journal operation against one possible journal: check the answer (or, for a killed operation, branch on its effect).
import type { GateRequest, OperationName, PrepareRequest, PrepareVerdict, ReconcileRequest, OpParams, SessionReadRequest, SessionSweepRequest, SettleRequest } from '../../shared/protocol/schemas.js';
import { killEffect } from './crash.js';
import type { OpAnswer } from './history.js';
import { checkpointed, type MState } from './journal-state.js';
import { listAnswered, opened, seedAnswered, seeded } from './listing-ops.js';
import { fail, ok, type OpEnv, type Outcome } from './outcome.js';
import { prepareAnswered, prepareApplied } from './prepare-op.js';
import { describe, gateAnswered, reconcileAnswered, reconcileApplied, resolveAnswered, resolveApplied, settleAnswered, settleApplied, terminalAnswered, terminalOutcomes } from './run-ops.js';
import { readAnswered, sweepAnswered, sweepApplied } from './session-ops.js';

type SeedRequest = OpParams<'seed'>;

/** Checks one answered operation; `ok` carries the journal it leads to. */
export function applyAnswered(state: MState, op: OperationName, params: unknown, answer: OpAnswer, env: OpEnv): Outcome {
  switch (op) {
    case 'prepare':
      if (answer.kind !== 'result') return fail('prepare.verdict', 'prepare', 'a verdict', describe(answer));
      return prepareAnswered(state, params as PrepareRequest, answer.result as PrepareVerdict, env);
    case 'settle':
      return settleAnswered(state, params as SettleRequest, answer, env);
    case 'gate':
      return gateAnswered(state, (params as GateRequest).scope, answer, env);
    case 'reconcile':
      return reconcileAnswered(state, params as ReconcileRequest, answer);
    case 'resolve':
      return resolveAnswered(state, params as { effectId: string; decision: 'accepted' | 'discarded'; actor: string }, answer);
    case 'runTerminal':
      return terminalAnswered(state, (params as { runId: string }).runId, answer);
    case 'sessionRead':
      return readAnswered(state, params as SessionReadRequest, answer, env);
    case 'sessionSweep':
      return sweepAnswered(state, params as SessionSweepRequest, answer, env);
    case 'listEffects':
      return listAnswered(state, answer, env);
    case 'seed':
      return seedAnswered(state, params as SeedRequest, answer, env);
    case 'open':
      return answer.kind === 'result' ? ok(opened(state, env)) : ok(state);
    case 'checkpoint':
      return answer.kind === 'result' && (answer.result as { checkpoint?: string }).checkpoint === 'complete' ? ok(checkpointed(state)) : ok(state);
    default:
      return ok(state);
  }
}

/** The possible journals after an operation the driver was killed inside: none of it, all of it, or either. */
export function applyKilled(state: MState, op: OperationName, params: unknown, at: string, env: OpEnv): MState[] {
  const effect = killEffect(at);
  if (effect === 'none') return [state];
  const applied = appliedStates(state, op, params, env);
  return effect === 'durable' ? applied : [state, ...applied.filter((s) => s !== state)];
}

// The journals a successful operation may have produced, computed without its answer (ids it would have told stay unknown).
function appliedStates(state: MState, op: OperationName, params: unknown, env: OpEnv): MState[] {
  switch (op) {
    case 'prepare':
      return prepareApplied(state, params as PrepareRequest);
    case 'settle':
      return settleApplied(state, params as SettleRequest, env);
    case 'reconcile':
      return reconcileApplied(state, params as ReconcileRequest);
    case 'resolve':
      return resolveApplied(state, params as { effectId: string; decision: 'accepted' | 'discarded' });
    case 'runTerminal':
      return terminalOutcomes(state, (params as { runId: string }).runId).map((o) => o.next);
    case 'sessionSweep':
      return sweepApplied(state, params as SessionSweepRequest);
    case 'seed':
      return [seeded(state, params as SeedRequest, [], env)];
    case 'open':
      return [opened(state, env)];
    default:
      return [state];
  }
}
