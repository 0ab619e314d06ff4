// The scripted model: which tool calls a node or session turn issues, and the identities derived from them.
import { canonicalJson } from '../../shared/canonical-json.js';
import type { Tier } from '../../shared/protocol/schemas.js';
import type { OutputMappingConfig } from './projections.js';
import type { ResponseShape } from '../world/targets.js';

export interface ToolCall {
  readonly slot: number;
  readonly toolId: string;
  readonly target: string;
  readonly tier: Tier;
  readonly args: Record<string, unknown>;
  readonly secretArgKeys: readonly string[];
  /** How the target answers (generated trials); absent: the fixed matrix's default response. */
  readonly response?: ResponseShape;
}

export interface NodeScript {
  readonly nodeId: string;
  readonly calls: readonly ToolCall[];
  /** What the model asks on the re-run, when a replay regenerates a different response. */
  readonly rerunCalls?: readonly ToolCall[];
  readonly mapping?: OutputMappingConfig;
  readonly rerunMapping?: OutputMappingConfig;
  /** false: the engine settles committed without retaining the result (§4 "result not retained"). */
  readonly retainResult?: boolean;
  /** The node-retry attempt of the original execution (audit only; the resume resets it to 1). */
  readonly originalAttempt?: number;
  /** Tool calls whose target never answers: the engine settles them ambiguous. */
  readonly timeoutSlots?: readonly number[];
}

export interface RunScript {
  readonly runId: string;
  readonly nodes: readonly NodeScript[];
}

/** A tier-3 call with a declared secret key and a public field: the crash matrix's default effect. */
export function defaultCall(overrides: Partial<ToolCall> & { canary?: string } = {}): ToolCall {
  const { canary, ...rest } = overrides;
  return {
    slot: 0,
    toolId: 'http_request',
    target: 'payments',
    tier: 3,
    args: { method: 'POST', url: 'https://payments.invalid/charge', amount: 42, apiToken: canary ?? 'tok-public-test' },
    secretArgKeys: ['apiToken'],
    ...rest,
  };
}

/** The logical effect address used by the target ledgers to count duplicates. */
export function logicalKey(scope: string, call: Pick<ToolCall, 'slot' | 'toolId'>): string {
  return `${scope}/${call.slot}/${call.toolId}`;
}

/** A scope's part of a logical key; ids holding `/` or `%` are escaped so two scopes never share a key (plain ids stay as they are). */
export function scopeKey(...parts: ReadonlyArray<string | number>): string {
  return parts.map((p) => encodeURIComponent(String(p))).join('/');
}

/**
 * A session turn's part of a logical key: one more part than a run node's (`session/<id>/<turn>`), so a session and a
 * run that share an id and a number (session a/b turn 0, run a/b node 0) never share a target's ledger entry.
 */
export function sessionScopeKey(sessionId: string, turn: number): string {
  return scopeKey('session', sessionId, turn);
}

/** The bytes the engine sends to the target: public args only, the secret would be a header in real life. */
export function payloadOf(call: ToolCall): string {
  const pub: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(call.args)) if (!call.secretArgKeys.includes(k)) pub[k] = v;
  return canonicalJson(pub);
}
