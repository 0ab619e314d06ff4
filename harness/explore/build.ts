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

/** A run as the engine executes it; `resumed(r)` is the same run as its r-th re-run after a crash asks it. */
export interface BuiltRun {
  readonly script: RunScript;
  resumed(r: number): RunScript;
}

/** Builds a run: every re-run asks its own variation (cycling), so each kill and resume checks another relation. */
export function buildRun(plan: RunPlan, book: CanaryBook): BuiltRun {
  const nodes = plan.nodes.map((n) => ({ plan: n, built: n.calls.map((c) => buildCall(c, book, 'run-result')) }));
  const memo = new Map<number, RunScript>();
  const resumed = (r: number): RunScript => {
    let script = memo.get(r);
    if (script === undefined) {
      script = { runId: plan.runId, nodes: nodes.map((n) => buildNode(n.plan, n.built, book, r)) };
      memo.set(r, script);
    }
    return script;
  };
  return { script: resumed(0), resumed };
}

function buildNode(plan: NodePlan, built: readonly BuiltCall[], book: CanaryBook, r: number): NodeScript {
  const mapping: OutputMappingConfig = { field: plan.mapping.field, bound: plan.mapping.bound };
  return {
    nodeId: plan.nodeId,
    calls: built.map((b) => b.call),
    rerunCalls: rerunCalls(plan, built, book, r),
    mapping,
    rerunMapping: rerunMapping(plan.mapping, at(plan.rerun.mapping, r)),
    retainResult: plan.retain,
    originalAttempt: plan.attempt,
    timeoutSlots: plan.timeoutSlot === null ? [] : [plan.timeoutSlot],
  };
}

function at<T>(list: readonly T[], r: number): T {
  return list[r % list.length]!;
}

function rerunCalls(plan: NodePlan, built: readonly BuiltCall[], book: CanaryBook, r: number): ToolCall[] {
  // The re-run's model response may regenerate a different set of calls: the gate is at node granularity for that.
  const kept = plan.rerun.dropFirst && r === 0 ? built.slice(1) : built;
  return kept.map((b) => {
    const template = b.plan.args.args;
    const kind = at(b.plan.rerun, r);
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
function rerunMapping(mapping: MappingPlan, kind: NodePlan['rerun']['mapping'][number]): OutputMappingConfig {
  if (kind === 'reorder') return { bound: mapping.bound, field: mapping.field } as OutputMappingConfig;
  if (kind === 'changed') return mapping.field === 'tail' ? { field: 'receipt', bound: mapping.bound } : { field: mapping.field, bound: mapping.bound + 1 };
  return { field: mapping.field, bound: mapping.bound };
}
