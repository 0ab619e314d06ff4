// The controller's conversion of a selected action into a capability/resource/operation/idempotency-bound intent.
import { canonicalJson, sha256Hex } from '../../shared/canonical-json.js';
import type { RunScope } from '../../shared/protocol/schemas.js';
import type { S8eFixture, SelectedAction } from './fixture.js';

/** What the controller will execute: bound to the grant that authorises it, never to the selector's claims. */
export interface EffectIntent {
  readonly capability: string;
  readonly grant: string;
  readonly resource: string;
  readonly operation: string;
  readonly label: string;
  /** Binds operation, target, authorization context and version: equal keys are the same intended write. */
  readonly intentKey: string;
  readonly scope: RunScope;
  readonly args: Record<string, string>;
  /** The logical effect address the target ledger counts duplicates by. */
  readonly logicalKey: string;
  /** The bytes sent to the target; the read-back must echo exactly these. */
  readonly payload: string;
}

export const INTENT_VERSION = 'v1';

/** Binds an authorised action; the narration and any claimed authority are dropped here. */
export function bindIntent(fixture: S8eFixture, action: SelectedAction, grant: string): EffectIntent {
  const binding = { capability: action.capability, grant, resource: action.resource, operation: action.operation, label: action.label, target: fixture.target, version: INTENT_VERSION };
  const intentKey = sha256Hex(canonicalJson(binding)).slice(0, 24);
  const scope: RunScope = { kind: 'run', runId: fixture.batchId, nodeId: `intent-${intentKey}` };
  const args = { resource: action.resource, label: action.label, capability: action.capability, intentKey };
  return {
    capability: action.capability,
    grant,
    resource: action.resource,
    operation: action.operation,
    label: action.label,
    intentKey,
    scope,
    args,
    logicalKey: `${scope.runId}/${scope.nodeId}/0/${action.operation}`,
    payload: canonicalJson(args),
  };
}
