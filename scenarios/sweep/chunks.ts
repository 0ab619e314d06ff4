// Sweeps that must span several chunks: more captured rows than the journal's chunk size, announced or discovered.
import type { Capabilities, CapturedRow, EffectRow } from '../../shared/protocol/schemas.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import { captured } from '../../harness/engine/session-engine.js';
import { callPrepare, defaultCall, rows } from '../support.js';
import { proceeded } from '../../harness/engine/setup-verdict.js';

/** The largest sweep discovery grows to before it gives up on seeing a second chunk. */
export const DISCOVERY_LIMIT = 1024;

/**
 * The captured-row counts to try: one more than an announced `sweepChunkSize` (one try), otherwise doubling from 2
 * until the journal shows a second chunk (its between-chunks point or its after-first-chunk fault).
 */
export function chunkTrials(caps: Capabilities): number[] {
  if (caps.sweepChunkSize !== undefined) return [caps.sweepChunkSize + 1];
  const out: number[] = [];
  for (let n = 2; n <= DISCOVERY_LIMIT; n *= 2) out.push(n);
  return out;
}

/** What to record when no try showed a second chunk: the announced size was wrong, or discovery ran out. */
export function noSecondChunk(t: TrialContext, what: string, tried: readonly number[]): void {
  const announced = t.capabilities.sweepChunkSize;
  const expected = announced !== undefined ? `${what} with ${announced + 1} captured rows (announced sweepChunkSize ${announced})` : `${what} with at most ${DISCOVERY_LIMIT} captured rows`;
  t.check(`a sweep spanning two chunks shows ${what}`, expected, `not seen with ${tried.join(', ')} captured rows`, false);
}

/** Commits session rows at fresh turns until the session holds `total` committed rows; returns them as captured rows. */
export async function committedRows(t: TrialContext, client: JournalClient, sessionId: string, total: number): Promise<CapturedRow[]> {
  let have = sessionCommitted(await rows(client), sessionId);
  let turn = Math.max(-1, ...have.map((r) => r.turn)) + 1;
  for (; have.length < total; turn += 1) {
    const call = defaultCall();
    const v = await client.op('prepare', callPrepare(t, { kind: 'session', sessionId, turn }, call));
    const id = proceeded(v, `a session effect at turn ${turn}`);
    await client.op('settle', { effectId: id, state: 'committed', result: null });
    have = [...have, captured(id, sessionId, turn, call.slot, call.toolId)];
  }
  return have;
}

function sessionCommitted(all: readonly EffectRow[], sessionId: string): CapturedRow[] {
  return all.flatMap((r) => (r.scope.kind === 'session' && r.scope.sessionId === sessionId && r.state === 'committed' ? [captured(r.effectId, sessionId, r.scope.turn, r.slot, r.toolId)] : []));
}
