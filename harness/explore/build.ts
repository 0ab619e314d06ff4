// Turns generated plans into the engine's scripts: canaries planted, re-run variations applied, responses sized.
import type { NodeScript, RunScript, ToolCall } from '../engine/model.js';
import type { OutputMappingConfig } from '../engine/projections.js';
import type { CanaryRole } from '../model/history.js';
import type { CanaryBook } from './canaries.js';
import type { CallPlan, MappingPlan, NodePlan, RunPlan } from './case.js';
import { mutatePublic, reorder, rotate } from './transform.js';

/** A call with its canaries: the arguments, and how to ask again with the same secrets. */
export interface BuiltCall {
  readonly call: ToolCall;
  readonly plan: CallPlan;
  readonly used: readonly string[];
}

/** The engine's call for a plan; its response carries a canary marker (a run result may be kept, a session result never). */
export function buildCall(plan: CallPlan, book: CanaryBook, role: Extract<CanaryRole, 'run-result' | 'session-result'>): BuiltCall {
  const { value, used } = book.instantiate(plan.args.args);
  const call: ToolCall = {
    slot: plan.slot,
    toolId: plan.toolId,
    target: `tier${plan.tier}-${plan.toolId}`,
    tier: plan.tier,
    args: value,
    secretArgKeys: [...plan.args.secretArgKeys],
    response: { padding: plan.padding, unicode: plan.unicode, marker: book.make(role) },
  };
  return { call, plan, used };
}

/** The run as the engine executes it, with the re-run the model asks after a crash. */
export function buildRun(plan: RunPlan, book: CanaryBook): RunScript {
  return { runId: plan.runId, nodes: plan.nodes.map((n) => buildNode(n, book)) };
}

function buildNode(plan: NodePlan, book: CanaryBook): NodeScript {
  const built = plan.calls.map((c) => buildCall(c, book, 'run-result'));
  const mapping: OutputMappingConfig = { field: plan.mapping.field, bound: plan.mapping.bound };
  return {
    nodeId: plan.nodeId,
    calls: built.map((b) => b.call),
    rerunCalls: rerunCalls(plan, built, book),
    mapping,
    rerunMapping: rerunMapping(plan.mapping, plan.rerun.mapping),
    retainResult: plan.retain,
    originalAttempt: plan.attempt,
    timeoutSlots: plan.timeoutSlot === null ? [] : [plan.timeoutSlot],
  };
}

function rerunCalls(plan: NodePlan, built: readonly BuiltCall[], book: CanaryBook): ToolCall[] {
  // The re-run's model response may regenerate a different set of calls: the gate is at node granularity for that.
  const kept = plan.rerun.dropFirst ? built.slice(1) : built;
  return kept.map((b) => {
    const template = b.plan.args.args;
    const kind = b.plan.rerun;
    let args: Record<string, unknown>;
    if (kind === 'same') args = b.call.args;
    else if (kind === 'reorder') args = reorder(b.call.args) as Record<string, unknown>;
    else if (kind === 'rotate') args = book.instantiate(rotate(template) as Record<string, unknown>).value;
    else if (kind === 'reorder+rotate') args = reorder(book.instantiate(rotate(template) as Record<string, unknown>).value) as Record<string, unknown>;
    else args = book.reuse(mutatePublic(template, b.plan.args.secretArgKeys, b.plan.mutation), b.used);
    return { ...b.call, args };
  });
}

// Equal configuration in another key order must still replay; a changed field or bound must refuse.
function rerunMapping(mapping: MappingPlan, kind: NodePlan['rerun']['mapping']): OutputMappingConfig {
  if (kind === 'reorder') return { bound: mapping.bound, field: mapping.field } as OutputMappingConfig;
  if (kind === 'changed') return mapping.field === 'tail' ? { field: 'receipt', bound: mapping.bound } : { field: mapping.field, bound: mapping.bound + 1 };
  return { field: mapping.field, bound: mapping.bound };
}
