// The SQLite layer: connection pragmas, BEGIN IMMEDIATE with bounded busy retry, read snapshots, checkpoints.
import type BetterSqlite3 from 'better-sqlite3';
import {
  BUSY_RETRIES,
  BUSY_RETRY_SLEEP_MS,
  BUSY_TIMEOUT_MS,
  CHECKPOINT_BUSY_TIMEOUT_MS,
} from './constants.js';
import { sqliteModule } from './sqlite-module.js';

export type Db = BetterSqlite3.Database;
export type Statement = BetterSqlite3.Statement;
export type CheckpointOutcome = 'complete' | 'deferred';

/** Opens one connection with the pragmas the contract requires (WAL, NORMAL, secure_delete, busy_timeout). */
export function openConnection(path: string): Db {
  const { Database, options } = sqliteModule();
  const db = new Database(path, options);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('secure_delete = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** Runs `fn` inside its own BEGIN IMMEDIATE, retrying a bounded number of times while the lock is busy. */
export function writeTransaction<T>(db: Db, fn: () => T): T {
  for (let attempt = 0; ; attempt++) {
    try {
      return inTransaction(db, 'BEGIN IMMEDIATE', fn);
    } catch (error) {
      if (!isBusy(error) || attempt >= BUSY_RETRIES) throw error;
      sleepSync(BUSY_RETRY_SLEEP_MS);
    }
  }
}

/** Runs `fn` inside one read transaction so every SELECT sees the same snapshot. */
export function readTransaction<T>(db: Db, fn: () => T): T {
  return inTransaction(db, 'BEGIN DEFERRED', fn);
}

/**
 * better-sqlite3's transaction semantics (a savepoint when already inside a transaction, rollback on a throw)
 * on cached statements: `db.transaction(fn)` builds four wrapper functions per call, a fifth of a prepare+settle.
 */
function inTransaction<T>(db: Db, begin: 'BEGIN IMMEDIATE' | 'BEGIN DEFERRED', fn: () => T): T {
  const nested = db.inTransaction;
  stmt(db, nested ? 'SAVEPOINT ejc_nested' : begin).run();
  try {
    const result = fn();
    stmt(db, nested ? 'RELEASE ejc_nested' : 'COMMIT').run();
    return result;
  } catch (error) {
    // SQLite may already have rolled back by itself (e.g. after SQLITE_FULL); only undo what is still open.
    if (db.inTransaction) {
      if (nested) {
        stmt(db, 'ROLLBACK TO ejc_nested').run();
        stmt(db, 'RELEASE ejc_nested').run();
      } else {
        stmt(db, 'ROLLBACK').run();
      }
    }
    throw error;
  }
}

/** wal_checkpoint(TRUNCATE): complete only when SQLite reports no busy reader or writer. */
export function checkpointTruncate(db: Db): CheckpointOutcome {
  db.pragma(`busy_timeout = ${CHECKPOINT_BUSY_TIMEOUT_MS}`);
  try {
    const rows = db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number; log: number; checkpointed: number }>;
    return rows[0]?.busy === 0 ? 'complete' : 'deferred';
  } finally {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}

/** A statement cached per connection: the prepare/settle path must not re-parse SQL on every call. */
export function stmt(db: Db, sql: string): Statement {
  let cache = statementCache.get(db);
  if (!cache) {
    cache = new Map();
    statementCache.set(db, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    cache.set(sql, statement);
  }
  return statement;
}

/** True for SQLITE_BUSY and its extended codes. */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_'));
}

/** True when the UNIQUE identity index rejected an insert. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

const statementCache = new WeakMap<Db, Map<string, Statement>>();
const sleepCell = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(ms: number): void {
  // The journal API is synchronous; Atomics.wait is the only non-spinning sleep available.
  Atomics.wait(sleepCell, 0, 0, ms);
}
