// The KXM tables: effect intents with their class and lease, run cancellation state, and the audit trail.
import { JournalError } from '../../harness/journal-interface.js';
import type { KxmClass, KxmEffect, KxmEffectState } from '../../shared/protocol/schemas.js';
import { parseEffectId } from '../schema.js';
import { stmt, type Db } from '../sqlite.js';
import { permittedResolutions, tierOf } from './classes.js';

const DDL = `
CREATE TABLE IF NOT EXISTS kxm_effects (
  id INTEGER PRIMARY KEY,
  run_id TEXT NOT NULL,
  step_id TEXT NOT NULL,
  assignment_id TEXT NOT NULL,
  attempt_id TEXT NOT NULL,
  slot INTEGER NOT NULL,
  tool_id TEXT NOT NULL,
  effect_class TEXT NOT NULL,
  declared_class TEXT,
  declaration_accepted INTEGER NOT NULL,
  registry_revision TEXT NOT NULL,
  receipt_query TEXT,
  idempotency_key TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('intent', 'dispatched', 'completed', 'blocked_uncertain', 'not_started', 'failed', 'cancelled')),
  lease_id TEXT,
  fencing_token INTEGER,
  lease_expires_at INTEGER,
  receipt_id TEXT,
  receipt_source TEXT,
  blocked_reason TEXT,
  reconciliation_attempts INTEGER NOT NULL DEFAULT 0,
  UNIQUE (run_id, assignment_id, slot)
);
CREATE TABLE IF NOT EXISTS kxm_runs (
  run_id TEXT PRIMARY KEY,
  state TEXT NOT NULL CHECK (state IN ('active', 'blocked_uncertain', 'cancelled')),
  cancel_requested INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS kxm_audit (
  id INTEGER PRIMARY KEY,
  run_id TEXT NOT NULL,
  effect_id INTEGER,
  action TEXT NOT NULL,
  actor TEXT NOT NULL,
  reason TEXT NOT NULL,
  references_json TEXT NOT NULL,
  result TEXT NOT NULL
);
`;

/** Creates the KXM tables when missing; called on every open next to the run_effects schema. */
export function createKxmSchema(db: Db): void {
  db.exec(DDL);
}

/** One kxm_effects row exactly as SQLite returns it. */
export interface KxmRowRecord {
  id: number;
  run_id: string;
  step_id: string;
  assignment_id: string;
  attempt_id: string;
  slot: number;
  tool_id: string;
  effect_class: KxmClass;
  declared_class: KxmClass | null;
  declaration_accepted: number;
  registry_revision: string;
  receipt_query: string | null;
  idempotency_key: string;
  state: KxmEffectState;
  lease_id: string | null;
  fencing_token: number | null;
  lease_expires_at: number | null;
  receipt_id: string | null;
  receipt_source: 'completion' | 'query' | 'resolution' | null;
  blocked_reason: string | null;
  reconciliation_attempts: number;
}

/** Reads one effect by wire id or answers kxm_invalid. */
export function requireKxmRow(db: Db, effectId: string): KxmRowRecord {
  const id = parseEffectId(effectId);
  const row = id === null ? undefined : (stmt(db, 'SELECT * FROM kxm_effects WHERE id = ?').get(id) as KxmRowRecord | undefined);
  if (!row) throw new JournalError('kxm_invalid', `no kxm effect with id ${JSON.stringify(effectId)}`);
  return row;
}

/** The wire view of one effect, its audit trail included. */
export function toKxmEffect(db: Db, row: KxmRowRecord): KxmEffect {
  const audit = stmt(db, 'SELECT action, actor, reason, references_json, result FROM kxm_audit WHERE effect_id = ? ORDER BY id').all(row.id) as Array<{
    action: KxmEffect['audit'][number]['action'];
    actor: string;
    reason: string;
    references_json: string;
    result: string;
  }>;
  return {
    effectId: String(row.id),
    runId: row.run_id,
    stepId: row.step_id,
    assignmentId: row.assignment_id,
    attemptId: row.attempt_id,
    slot: row.slot,
    toolId: row.tool_id,
    effectClass: row.effect_class,
    tier: tierOf(row.effect_class),
    declaredClass: row.declared_class,
    declarationAccepted: row.declaration_accepted === 1,
    registryRevision: row.registry_revision,
    receiptQuery: row.receipt_query,
    idempotencyKey: row.idempotency_key,
    state: row.state,
    lease:
      row.lease_id === null ? null : { leaseId: row.lease_id, fencingToken: row.fencing_token ?? 0, expiresAt: row.lease_expires_at ?? 0 },
    receipt: row.receipt_id === null ? null : { receiptId: row.receipt_id, source: row.receipt_source ?? 'completion' },
    blocked: row.state === 'blocked_uncertain' ? { reason: row.blocked_reason ?? '', permittedResolutions: permittedResolutions() } : null,
    reconciliationAttempts: row.reconciliation_attempts,
    audit: audit.map((a) => ({ action: a.action, actor: a.actor, reason: a.reason, references: JSON.parse(a.references_json) as string[], result: a.result })),
  };
}

/** The run's cancellation state; a run never cancelled reads as active. */
export function runRecord(db: Db, runId: string): { state: 'active' | 'blocked_uncertain' | 'cancelled'; cancelRequested: boolean } {
  const row = stmt(db, 'SELECT state, cancel_requested FROM kxm_runs WHERE run_id = ?').get(runId) as
    | { state: 'active' | 'blocked_uncertain' | 'cancelled'; cancel_requested: number }
    | undefined;
  return row ? { state: row.state, cancelRequested: row.cancel_requested === 1 } : { state: 'active', cancelRequested: false };
}

/** Every effect of a run, in declaration order. */
export function runEffects(db: Db, runId: string): KxmRowRecord[] {
  return stmt(db, 'SELECT * FROM kxm_effects WHERE run_id = ? ORDER BY id').all(runId) as KxmRowRecord[];
}

/** Appends one audited control-plane action. */
export function appendAudit(db: Db, entry: { runId: string; effectId: number | null; action: string; actor: string; reason: string; references: string[]; result: string }): void {
  stmt(db, 'INSERT INTO kxm_audit (run_id, effect_id, action, actor, reason, references_json, result) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    entry.runId,
    entry.effectId,
    entry.action,
    entry.actor,
    entry.reason,
    JSON.stringify(entry.references),
    entry.result,
  );
}
