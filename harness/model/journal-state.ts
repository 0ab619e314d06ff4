// The model's view of one possible journal: its rows as the history so far proves them, and what freed bytes must be gone.
import type { EffectScope, RecordedResult, Tier } from '../../shared/protocol/schemas.js';
import { logicalKey, scopeKey, sessionScopeKey } from '../engine/model.js';

/** One row as the model knows it; unknown ids and keys are learnt from later observations. */
export interface MRow {
  readonly addr: string;
  readonly scope: EffectScope;
  readonly slot: number;
  readonly toolId: string;
  readonly tier: Tier;
  readonly id: string | null;
  readonly state: 'unresolved' | 'committed';
  /** For unresolved rows: prepared (a settle must succeed), ambiguous (settled), attention (the gate may have moved it). */
  readonly sub: 'prepared' | 'ambiguous' | 'attention';
  /** The prepare's arguments, or 'legacy' for a seeded row whose digest cannot be compared. */
  readonly args: { readonly args: Readonly<Record<string, unknown>>; readonly secretArgKeys: readonly string[] } | 'legacy';
  /** The output-mapping configuration the effect ran under (run rows); undefined when the prepare carried none. */
  readonly mapping: unknown;
  readonly result: RecordedResult | null;
  /** The stored target idempotency key: a string once known, 'unknown' before, null for a seeded row without one. */
  readonly ikey: string | null | 'unknown';
  readonly callId: string;
  readonly resolution: 'accepted' | 'discarded' | null;
  /** Canary ids whose bytes this row holds (its recorded result, or a seeded legacy session result). */
  readonly canaries: readonly number[];
  /** A legacy writer's session result, still stored until the next open clears it. */
  readonly legacyResult?: boolean;
}

/** One possible journal. */
export interface MState {
  readonly rows: ReadonlyMap<string, MRow>;
  /** Canaries whose rows were deleted (or whose legacy result was cleared): pending a checkpoint, or checkpointed. */
  readonly freed: ReadonlyMap<number, 'pending' | 'checkpointed'>;
}

export const EMPTY: MState = { rows: new Map(), freed: new Map() };

/** The identity key of a row: scope with attempt dropped, slot and tool (the UNIQUE constraint). */
export function addrOf(scope: EffectScope, slot: number, toolId: string): string {
  return JSON.stringify(scope.kind === 'run' ? ['run', scope.runId, scope.nodeId, slot, toolId] : ['session', scope.sessionId, scope.turn, slot, toolId]);
}

/** The target ledgers' logical key of a row (the engine's own scheme). */
export function rowLogicalKey(row: Pick<MRow, 'scope' | 'slot' | 'toolId'>): string {
  const scope = row.scope.kind === 'run' ? scopeKey(row.scope.runId, row.scope.nodeId) : sessionScopeKey(row.scope.sessionId, row.scope.turn);
  return logicalKey(scope, row);
}

/**
 * The state with a discarded row kept beside the row that takes its identity next: under a key of its own (its identity
 * and its id), so the identity's key names the new row while listings and sweeps still see the old one.
 */
export function withBeside(state: MState, row: MRow): MState {
  const rows = new Map(state.rows);
  rows.delete(row.addr);
  rows.set(`${identityOf(row)}\u0000beside:${row.id ?? 'unknown'}`, { ...row, addr: `${identityOf(row)}\u0000beside:${row.id ?? 'unknown'}` });
  return { ...state, rows };
}

/** A row's identity key (addrOf of its scope, slot and tool), the same for a discarded row kept beside its successor. */
export function identityOf(row: Pick<MRow, 'scope' | 'slot' | 'toolId'>): string {
  return addrOf(row.scope, row.slot, row.toolId);
}

export function withRow(state: MState, row: MRow): MState {
  const rows = new Map(state.rows);
  rows.set(row.addr, row);
  return { ...state, rows };
}

/** Deletes rows; their canaries are freed, pending a checkpoint. */
export function withoutRows(state: MState, addrs: readonly string[]): MState {
  if (addrs.length === 0) return state;
  const rows = new Map(state.rows);
  const freed = new Map(state.freed);
  for (const addr of addrs) {
    for (const c of rows.get(addr)?.canaries ?? []) freed.set(c, 'pending');
    rows.delete(addr);
  }
  return { rows, freed };
}

/** A successful checkpoint: every freed byte so far must be gone from both files. */
export function checkpointed(state: MState): MState {
  if (![...state.freed.values()].includes('pending')) return state;
  return { ...state, freed: new Map([...state.freed].map(([c]) => [c, 'checkpointed' as const])) };
}

export function rowById(state: MState, id: string): MRow | undefined {
  for (const row of state.rows.values()) if (row.id === id) return row;
  return undefined;
}

/** Rows of one run node (attempt dropped), by slot. */
export function nodeRows(state: MState, runId: string, nodeId: string): MRow[] {
  return [...state.rows.values()].filter((r) => r.scope.kind === 'run' && r.scope.runId === runId && r.scope.nodeId === nodeId).sort(bySlot);
}

export function sessionRows(state: MState, sessionId: string): MRow[] {
  return [...state.rows.values()].filter((r) => r.scope.kind === 'session' && r.scope.sessionId === sessionId).sort(bySlot);
}

/** A stable key of a possible world, so equal worlds reached by different paths collapse into one. */
export function stateKey(state: MState): string {
  const rows = [...state.rows.values()].sort((a, b) => (a.addr < b.addr ? -1 : 1)).map((r) => [r.addr, r.id, r.state, r.sub, r.result === null ? 0 : 1, r.ikey, r.resolution, r.legacyResult === true]);
  return JSON.stringify([rows, [...state.freed].sort((a, b) => a[0] - b[0])]);
}

function bySlot(a: MRow, b: MRow): number {
  return a.slot - b.slot || (a.addr < b.addr ? -1 : 1);
}

/**
 * Whether a state a journal reports for a row is one the model allows: committed for committed, any unresolved state
 * otherwise, and committed too for an accepted resolution (§8: "accepted (the effect landed; treat it as committed)").
 */
export function stateAllowed(row: MRow, observed: string): boolean {
  if (row.state === 'committed') return observed === 'committed';
  return observed !== 'committed' || row.resolution === 'accepted';
}

/** `stateAllowed`'s expectation, in a counterexample's words. */
export function stateExpected(row: MRow): string {
  if (row.state === 'committed') return 'committed';
  return row.resolution === 'accepted' ? 'needs_attention (accepted) | committed' : 'prepared | ambiguous | needs_attention';
}
