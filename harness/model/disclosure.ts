// §8: what a session resume must disclose for each row, joined against the whole transcript history by engine call id.
import type { TranscriptTurn } from '../../shared/protocol/schemas.js';

export type DisclosureReason = 'unresolved' | 'turn_incomplete' | 'unattributable' | 'legacy';

/** The legacy wiring placeholders (session, home, agent-run): they can never establish completion. */
export const LEGACY_PLACEHOLDERS: ReadonlySet<string> = new Set(['legacy:session', 'legacy:home', 'legacy:agent-run']);

/** The row as the join reads it. */
export interface DisclosureRowView {
  readonly state: 'unresolved' | 'committed';
  readonly slot: number;
  readonly toolId: string;
  readonly callId: string;
}

/** The reasons a read may give for this row; empty means it must stay silent. */
export function allowedDisclosures(row: DisclosureRowView, transcript: readonly TranscriptTurn[]): readonly DisclosureReason[] {
  // "Every unresolved state is disclosed, including negative-slot ! commands."
  if (row.state === 'unresolved') return ['unresolved'];
  // "A committed negative-slot ! command is silent: it is not a model turn."
  if (row.slot < 0) return [];
  if (completedMatch(row, transcript)) return [];
  // Incomplete, unattributable and legacy rows are all "possibly incomplete": any of the three reasons is conservative.
  return POSSIBLY_INCOMPLETE;
}

/** The reason the contract's own wording gives (what a report shows as expected). */
export function primaryReason(row: DisclosureRowView, transcript: readonly TranscriptTurn[]): DisclosureReason | null {
  if (row.state === 'unresolved') return 'unresolved';
  if (row.slot < 0 || completedMatch(row, transcript)) return null;
  if (LEGACY_PLACEHOLDERS.has(row.callId)) return 'legacy';
  const seen = sightings(row.callId, transcript);
  return seen.length > 1 || seen.some((s) => s.toolName !== row.toolId) ? 'unattributable' : 'turn_incomplete';
}

const POSSIBLY_INCOMPLETE: readonly DisclosureReason[] = ['turn_incomplete', 'unattributable', 'legacy'];

// Silent only when the call id appears exactly once in all history, under the row's tool, inside a completed exchange.
function completedMatch(row: DisclosureRowView, transcript: readonly TranscriptTurn[]): boolean {
  if (LEGACY_PLACEHOLDERS.has(row.callId)) return false;
  const seen = sightings(row.callId, transcript);
  return seen.length === 1 && seen[0]!.toolName === row.toolId && seen[0]!.status === 'completed';
}

function sightings(callId: string, transcript: readonly TranscriptTurn[]): Array<{ toolName: string; status: TranscriptTurn['status'] }> {
  return transcript.flatMap((turn) => turn.calls.filter((c) => c.callId === callId).map((c) => ({ toolName: c.toolName, status: turn.status })));
}
