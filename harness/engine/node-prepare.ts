// The prepare an engine sends for one planned call of a run node: the run path, a duplicate worker, an operator's re-run
// and a long-lived reader all ask the journal the same way.
import type { OpParams } from '../../shared/protocol/schemas.js';
import type { OutputMappingConfig } from './projections.js';
import type { ToolCall } from './model.js';
import type { TrialContext } from './trial-context.js';

/** Who asks: the node attempt, the output mapping the node runs under, the audit's owner and fencing generation. */
export interface PrepareAsker {
  readonly attempt: number;
  readonly mapping: OutputMappingConfig;
  readonly owner: string;
  readonly generation: number;
}

/** The prepare of `call` in run `runId` node `nodeId`, with a fresh call id from the trial's seed. */
export function nodePrepare(t: TrialContext, runId: string, nodeId: string, call: ToolCall, asker: PrepareAsker): OpParams<'prepare'> {
  return {
    correlation: { kind: 'run', runId, nodeId, attempt: asker.attempt },
    slot: call.slot,
    toolId: call.toolId,
    tier: call.tier,
    args: call.args,
    secretArgKeys: [...call.secretArgKeys],
    outputMappingConfig: { ...asker.mapping },
    audit: { providerAttempt: 1, callId: t.rng.id('call'), ownerId: asker.owner, generation: asker.generation },
  };
}
