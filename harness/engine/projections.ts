// What the engine derives from a target's response: the bounded model value, summary and output mapping.
import type { RecordedResult } from '../../shared/protocol/schemas.js';

/** Output-mapping configuration of a node: which field of the full response goes into workflow state. */
export interface OutputMappingConfig {
  readonly field: string;
  readonly bound: number;
}

export const DEFAULT_MAPPING: OutputMappingConfig = { field: 'tail', bound: 48 };

/** Derives the four recorded projections from the full response, as the original dispatch did. */
export function deriveProjections(toolId: string, response: string, mapping: OutputMappingConfig): RecordedResult {
  const truncated = response.length > mapping.bound;
  const modelValue = truncated ? `${previewOf(response, mapping.bound)}…` : response;
  return {
    modelValue,
    truncated,
    summary: `${toolId}: ${response.length} chars${truncated ? ' (truncated)' : ''}`,
    // Mapping reads the full response: re-deriving it from the preview would yield a different value.
    outputMappingResult: mapField(response, mapping.field),
  };
}

// The first `bound` UTF-16 units, one fewer when the cut would split a surrogate pair: a lone surrogate is not I-JSON,
// and a journal canonicalizing the result (RFC 8785) must refuse it.
function previewOf(response: string, bound: number): string {
  const code = response.charCodeAt(bound - 1);
  return bound > 0 && code >= 0xd800 && code <= 0xdbff ? response.slice(0, bound - 1) : response.slice(0, bound);
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
