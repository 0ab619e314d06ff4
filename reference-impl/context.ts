// What every operation module needs from the open journal.
import type { Fault, TierMode } from '../shared/protocol/schemas.js';
import { JournalError } from '../harness/journal-interface.js';
import type { CrashPoint } from './constants.js';
import { type RowRecord } from './schema.js';
import { parseEffectId } from './schema.js';
import { stmt, type Db } from './sqlite.js';

export interface JournalContext {
  readonly db: Db;
  readonly crashpoint: (point: CrashPoint) => void;
  readonly tierMode: TierMode;
  readonly faults: ReadonlySet<Fault>;
  /** Captured rows per session-sweep chunk, as announced in capabilities.sweepChunkSize. */
  readonly sweepChunkSize: number;
  readonly now: () => string;
}

/** Reads one row by wire effect id; undefined when the id is malformed or absent. */
export function rowById(db: Db, effectId: string): RowRecord | undefined {
  const id = parseEffectId(effectId);
  if (id === null) return undefined;
  return stmt(db, 'SELECT * FROM run_effects WHERE id = ?').get(id) as RowRecord | undefined;
}

/** Reads one row by wire effect id or answers with the given stable error code. */
export function requireRow(db: Db, effectId: string, code: 'settle_no_row' | 'reconcile_invalid' | 'resolve_invalid'): RowRecord {
  const row = rowById(db, effectId);
  if (!row) throw new JournalError(code, `no effect row with id ${JSON.stringify(effectId)}`);
  return row;
}
