"""Session disclosure (spec 8), the captured-row sweep (spec 9), legacy clearing, seeding and the listing."""
from errors import JournalError
import store

LEGACY_CALL_IDS = {'legacy:session', 'legacy:home', 'legacy:agent-run'}
DEFAULT_SWEEP_CHUNK = 100


# Reads a session's rows in one snapshot and decides what must be disclosed and what may be swept.
def session_read(ctx, req):
    if 'session_read_fails' in ctx.faults:
        raise JournalError('session_read_failed', f"injected fault: reading session {req['sessionId']!r} failed")
    # An outer transaction's uncommitted view cannot prove durable completion (spec 9).
    if ctx.conn.in_transaction:
        raise JournalError('outer_transaction', 'sessionRead refuses to run inside an outer transaction')
    sql = "SELECT * FROM run_effects WHERE scope_kind = 'session' AND session_id = ? ORDER BY turn, slot, id"
    rows = store.read_transaction(ctx.conn, lambda conn: conn.execute(sql, (req['sessionId'],)).fetchall())
    calls = _index_calls(req['transcript'])
    disclosures, captured = [], []
    for row in rows:
        reason = disclosure_for(row, calls)
        if reason:
            disclosures.append({'effectId': str(row['id']), 'reason': reason})
        if row['state'] == 'committed':
            captured.append({'effectId': str(row['id']), 'sessionId': row['session_id'], 'turn': row['turn'],
                             'slot': row['slot'], 'toolId': row['tool_id'], 'state': 'committed'})
    return {'effects': [store.to_effect_row(r) for r in rows], 'disclosures': disclosures, 'captured': captured}


# Why one session row must be disclosed, or None when the transcript proves its turn completed.
def disclosure_for(row, calls):
    if store.is_unresolved(row):
        return 'unresolved'
    if row['state'] != 'committed' or row['slot'] < 0:
        return None
    if row['call_id'] in LEGACY_CALL_IDS:
        return 'legacy'
    seen = calls.get(row['call_id'], [])
    if len(seen) > 1 or (seen and seen[0][0] != row['tool_id']):
        return 'unattributable'
    if seen and seen[0][1] == 'completed':
        return None
    return 'turn_incomplete'


# Deletes exactly the captured rows still committed at the same address, all chunks in one transaction.
def session_sweep(ctx, req):
    if req.get('insideOuterTransaction') is True:
        return _probe_outer_transaction(ctx, req)
    deleted = _sweep_owned(ctx, req)
    return {'deleted': deleted, 'checkpoint': store.checkpoint_truncate(ctx.conn)}


# Clears every legacy session result in one owned write, then checkpoints so freed bytes leave both files.
def clear_legacy_session_results(conn):
    store.write_transaction(conn, lambda c: c.execute(
        "UPDATE run_effects SET result_json = NULL WHERE scope_kind = 'session' AND result_json IS NOT NULL").rowcount)
    return store.checkpoint_truncate(conn)


# Plants rows exactly as an older writer would have left them (any digest, state, result), in one transaction.
def seed(conn, rows, now):
    def body(c):
        ids = []
        for row in rows:
            cursor = c.execute(
                """INSERT INTO run_effects (scope_kind, run_id, node_id, session_id, turn, slot, tool_id, tier, state, args_digest,
                     output_mapping_digest, result_json, node_attempt, provider_attempt, call_id, owner_id, generation, created_at, updated_at)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, 0, ?, 'seed', 0, ?, ?)""",
                (*store.scope_columns(row['scope']), row['slot'], row['toolId'], row['tier'], row['state'], row['argsDigest'],
                 row['resultJson'], 1 if row['scope']['kind'] == 'run' else None, row['callId'], now, now))
            ids.append(str(cursor.lastrowid))
        return ids
    return store.write_transaction(conn, body)


# Every row, content-free, in id order.
def list_effects(conn):
    return [store.to_effect_row(r) for r in conn.execute('SELECT * FROM run_effects ORDER BY id').fetchall()]


# Keyed by call id over all history: compacted turns count, turn numbers do not.
def _index_calls(transcript):
    calls = {}
    for turn in transcript:
        for call in turn['calls']:
            calls.setdefault(call['callId'], []).append((call['toolName'], turn['status']))
    return calls


# The probe opens a plain BEGIN itself, so the real sweep path must notice it and refuse.
def _probe_outer_transaction(ctx, req):
    ctx.conn.execute('BEGIN')
    try:
        _sweep_owned(ctx, req)
    finally:
        if ctx.conn.in_transaction:
            ctx.conn.execute('ROLLBACK')
    raise JournalError('internal', 'the sweep ran inside an outer transaction instead of refusing')


def _sweep_owned(ctx, req):
    if ctx.conn.in_transaction:
        raise JournalError('outer_transaction', 'sessionSweep refuses to run inside an outer transaction: it must own its commit')
    size = DEFAULT_SWEEP_CHUNK
    # Rows of another session are never ours to delete, whatever the caller captured.
    owned = [r for r in req['captured'] if r['sessionId'] == req['sessionId']]
    chunks = [owned[i:i + size] for i in range(0, len(owned), size)]

    def body(conn):
        deleted = 0
        for index, chunk in enumerate(chunks):
            for row in chunk:
                row_id = store.parse_effect_id(row['effectId'])
                if row_id is not None:
                    deleted += conn.execute(
                        """DELETE FROM run_effects WHERE id = ? AND scope_kind = 'session' AND session_id = ? AND turn = ?
                             AND slot = ? AND tool_id = ? AND state = 'committed'""",
                        (row_id, row['sessionId'], row['turn'], row['slot'], row['toolId'])).rowcount
            if index == 0 and 'sweep_fails_after_first_chunk' in ctx.faults:
                raise JournalError('sweep_failed', 'injected fault: the sweep failed after its first chunk; nothing was committed')
        return deleted
    try:
        return store.write_transaction(ctx.conn, body)
    except JournalError:
        raise
    except Exception as error:
        raise JournalError('sweep_failed', f'the session sweep failed and rolled back: {error}', error) from error
