"""The SQLite layer: pragmas, BEGIN IMMEDIATE with bounded busy retry, the run_effects table and its row view."""
import sqlite3
import time

BUSY_TIMEOUT_MS = 2000
BUSY_RETRIES = 20
BUSY_RETRY_SLEEP_S = 0.025
# A checkpoint is best-effort: a busy reader defers it rather than stalling the caller.
CHECKPOINT_BUSY_TIMEOUT_MS = 100
_SQLITE_BUSY = 5
_UNIQUE_CODES = (2067, 1555)  # SQLITE_CONSTRAINT_UNIQUE, SQLITE_CONSTRAINT_PRIMARYKEY

# Same table as the reference. No AUTOINCREMENT: a deleted id may come back, which the session
# sweep must tolerate. NULL halves of the scope are coalesced so UNIQUE sees them as equal.
DDL = """
CREATE TABLE IF NOT EXISTS run_effects (
  id INTEGER PRIMARY KEY,
  scope_kind TEXT NOT NULL CHECK (scope_kind IN ('run', 'session')),
  run_id TEXT, node_id TEXT, session_id TEXT, turn INTEGER,
  slot INTEGER NOT NULL,
  tool_id TEXT NOT NULL,
  tier INTEGER NOT NULL CHECK (tier IN (1, 2, 3)),
  state TEXT NOT NULL CHECK (state IN ('prepared', 'committed', 'ambiguous', 'needs_attention')),
  args_digest TEXT NOT NULL,
  output_mapping_digest TEXT,
  idempotency_key TEXT,
  result_json TEXT,
  node_attempt INTEGER,
  provider_attempt INTEGER NOT NULL,
  call_id TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  generation INTEGER NOT NULL,
  resolution TEXT CHECK (resolution IN ('accepted', 'discarded')),
  resolution_actor TEXT, resolution_at TEXT, ambiguous_reason TEXT,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
  CHECK ((scope_kind = 'run' AND run_id IS NOT NULL AND node_id IS NOT NULL AND session_id IS NULL AND turn IS NULL)
      OR (scope_kind = 'session' AND session_id IS NOT NULL AND turn IS NOT NULL AND run_id IS NULL AND node_id IS NULL))
);
CREATE UNIQUE INDEX IF NOT EXISTS run_effects_identity ON run_effects (
  scope_kind, coalesce(run_id, ''), coalesce(node_id, ''), coalesce(session_id, ''), coalesce(turn, -1), slot, tool_id
);
CREATE INDEX IF NOT EXISTS run_effects_run ON run_effects (run_id, node_id);
CREATE INDEX IF NOT EXISTS run_effects_session ON run_effects (session_id, turn);
"""


# Opens one autocommit connection (we issue BEGIN/COMMIT ourselves) with the contract's pragmas.
def open_connection(path):
    conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        conn.row_factory = sqlite3.Row
        conn.execute('PRAGMA journal_mode = WAL').fetchall()
        conn.execute('PRAGMA synchronous = NORMAL')
        conn.execute('PRAGMA secure_delete = ON').fetchall()
        conn.execute(f'PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}').fetchall()
    except BaseException:
        conn.close()
        raise
    return conn


# Runs fn(conn) inside its own BEGIN IMMEDIATE, retrying a bounded number of times while the lock is busy.
def write_transaction(conn, fn):
    attempt = 0
    while True:
        try:
            conn.execute('BEGIN IMMEDIATE')
        except sqlite3.OperationalError as error:
            if not is_busy(error) or attempt >= BUSY_RETRIES:
                raise
            attempt += 1
            time.sleep(BUSY_RETRY_SLEEP_S)
            continue
        try:
            result = fn(conn)
            conn.execute('COMMIT')
            return result
        except BaseException:
            if conn.in_transaction:
                conn.execute('ROLLBACK')
            raise


# Runs fn(conn) inside one deferred read transaction so every SELECT sees the same snapshot.
def read_transaction(conn, fn):
    conn.execute('BEGIN')
    try:
        result = fn(conn)
    finally:
        if conn.in_transaction:
            conn.execute('COMMIT')
    return result


# wal_checkpoint(TRUNCATE): 'complete' only when SQLite reports no busy reader or writer.
def checkpoint_truncate(conn):
    conn.execute(f'PRAGMA busy_timeout = {CHECKPOINT_BUSY_TIMEOUT_MS}').fetchall()
    try:
        row = conn.execute('PRAGMA wal_checkpoint(TRUNCATE)').fetchone()
        return 'complete' if row is not None and row[0] == 0 else 'deferred'
    finally:
        conn.execute(f'PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}').fetchall()


# True for SQLITE_BUSY and its extended codes.
def is_busy(error):
    code = getattr(error, 'sqlite_errorcode', None)
    return isinstance(code, int) and (code & 0xFF) == _SQLITE_BUSY


# True when the UNIQUE identity index rejected an insert.
def is_unique_violation(error):
    return isinstance(error, sqlite3.IntegrityError) and getattr(error, 'sqlite_errorcode', None) in _UNIQUE_CODES


# The scope columns (kind, run_id, node_id, session_id, turn) of a wire scope.
def scope_columns(scope):
    if scope['kind'] == 'run':
        return ('run', scope['runId'], scope['nodeId'], None, None)
    return ('session', None, None, scope['sessionId'], scope['turn'])


# The identity scope a row was written under.
def row_scope(row):
    if row['scope_kind'] == 'run':
        return {'kind': 'run', 'runId': row['run_id'] or '', 'nodeId': row['node_id'] or ''}
    return {'kind': 'session', 'sessionId': row['session_id'] or '', 'turn': row['turn'] or 0}


# The content-free wire view of a row: no arguments, no result, only whether one is retained.
def to_effect_row(row):
    resolution = None
    if row['resolution'] is not None:
        resolution = {'decision': row['resolution'], 'actor': row['resolution_actor'] or '', 'at': row['resolution_at'] or ''}
    return {
        'effectId': str(row['id']), 'scope': row_scope(row), 'slot': row['slot'], 'toolId': row['tool_id'],
        'tier': row['tier'], 'state': row['state'], 'argsDigest': row['args_digest'],
        'idempotencyKey': row['idempotency_key'], 'resultRetained': row['result_json'] is not None,
        'resolution': resolution,
        'attempt': {'nodeAttempt': row['node_attempt'], 'providerAttempt': row['provider_attempt'], 'callId': row['call_id'],
                    'ownerId': row['owner_id'], 'generation': row['generation']},
    }


# Unresolved = not committed and no operator resolution yet.
def is_unresolved(row):
    return row['state'] != 'committed' and row['resolution'] is None


# A wire effect id as a row id; anything but a canonical positive integer matches no row.
def parse_effect_id(effect_id):
    if not (1 <= len(effect_id) <= 16) or not effect_id.isascii() or not effect_id.isdigit() or effect_id[0] == '0':
        return None
    number = int(effect_id)
    return number if number <= 2 ** 53 - 1 else None


# One row by wire effect id, or None.
def row_by_id(conn, effect_id):
    row_id = parse_effect_id(effect_id)
    if row_id is None:
        return None
    return conn.execute('SELECT * FROM run_effects WHERE id = ?', (row_id,)).fetchone()
