// What the engine derives from a target's response: the bounded model value, summary and output mapping.
import type { RecordedResult } from '../protocol/schemas.js';

/** Output-mapping configuration of a node: which field of the full response goes into workflow state. */
export interface OutputMappingConfig {
  readonly field: string;
  readonly bound: number;
}

export const DEFAULT_MAPPING: OutputMappingConfig = { field: 'tail', bound: 48 };

/** Derives the four recorded projections from the full response, as the original dispatch did. */
export function deriveProjections(toolId: string, response: string, mapping: OutputMappingConfig): RecordedResult {
  const truncated = response.length > mapping.bound;
  const modelValue = truncated ? `${response.slice(0, mapping.bound)}…` : response;
  return {
    modelValue,
    truncated,
    summary: `${toolId}: ${response.length} chars${truncated ? ' (truncated)' : ''}`,
    // Mapping reads the full response: re-deriving it from the preview would yield a different value.
    outputMappingResult: mapField(response, mapping.field),
  };
}

/** The node's output: a deterministic fold of its tool results, in slot order. */
export function nodeOutput(results: ReadonlyArray<{ slot: number; projections: RecordedResult }>): unknown {
  return [...results]
    .sort((a, b) => a.slot - b.slot)
    .map((r) => ({ slot: r.slot, value: r.projections.outputMappingResult, truncated: r.projections.truncated }));
}

function mapField(response: string, field: string): unknown {
  try {
    const parsed = JSON.parse(response) as Record<string, unknown>;
    return parsed[field] ?? null;
  } catch {
    return null;
  }
}
