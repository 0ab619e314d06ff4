"""Run-path operations ported from reference-impl: prepare, settle, gate, reconcile, resolve, run retention."""
import json

from canonical import canonical_json, sha256_hex
from errors import JournalError
from redact import redact_args, redact_value
import store

DIGEST_VERSION = 'v5:'
# Hashed in place of an absent output-mapping config so "none" never equals any real config.
_NO_OUTPUT_MAPPING = {'ejc:output-mapping': 'absent'}


# Prepares one effect in its own BEGIN IMMEDIATE; the UNIQUE identity decides between racing writers.
def prepare(ctx, req):
    digest = DIGEST_VERSION + sha256_hex(canonical_json(redact_args(req['args'], req['secretArgKeys'])))
    config = req['outputMappingConfig'] if 'outputMappingConfig' in req else _NO_OUTPUT_MAPPING
    mapping_digest = DIGEST_VERSION + sha256_hex(canonical_json(redact_value(config)))
    c = req['correlation']
    scope = {'kind': 'run', 'runId': c['runId'], 'nodeId': c['nodeId']} if c['kind'] == 'run' else \
        {'kind': 'session', 'sessionId': c['sessionId'], 'turn': c['turn']}

    def body(conn):
        existing = _find_by_identity(conn, scope, req['slot'], req['toolId'])
        replaces = None
        if existing is not None:
            decided = judge_existing(existing, digest, mapping_digest)
            if decided is not None:
                return decided
            # Discarded by an operator: the effect did not land, so the node may run it again.
            conn.execute('DELETE FROM run_effects WHERE id = ?', (existing['id'],))
            replaces = existing['idempotency_key'] or f"discarded:{existing['id']}"
        row_id = _insert_prepared(ctx, conn, req, store.scope_columns(scope), digest, mapping_digest)
        identity = {'scope': scope, 'slot': req['slot'], 'toolId': req['toolId']}
        key = 'ik-' + sha256_hex(canonical_json({'identity': identity, 'id': row_id, 'replaces': replaces}))[:32]
        conn.execute('UPDATE run_effects SET idempotency_key = ? WHERE id = ?', (key, row_id))
        return {'verdict': 'proceed', 'effectId': str(row_id), 'idempotencyKey': key}

    try:
        return store.write_transaction(ctx.conn, body)
    except Exception as error:
        # A writer that raced past our SELECT loses on the UNIQUE index: another attempt exists.
        if store.is_unique_violation(error):
            return _refuse('duplicate_identity', None, 'another writer prepared this identity first')
        raise


# The verdict for an existing row at this identity; None means "replace it and proceed" (discarded).
def judge_existing(row, digest, mapping_digest):
    effect_id = str(row['id'])
    if row['scope_kind'] == 'session':
        if row['state'] == 'committed':
            return _refuse('session_never_replays', effect_id, 'a session effect is never replayed; the earlier effect stands')
        return _refuse('duplicate_identity', effect_id, 'an earlier attempt of this session effect exists')
    if not row['args_digest'].startswith(DIGEST_VERSION):
        return _refuse('legacy_digest', effect_id, 'the row was written with a legacy args digest; its projection cannot be proven')
    if row['resolution'] == 'discarded':
        return None
    if row['state'] != 'committed' and row['resolution'] != 'accepted':
        return _refuse('duplicate_identity', effect_id, f"an unresolved ({row['state']}) effect holds this identity")
    if row['args_digest'] != digest:
        return _refuse('args_mismatch', effect_id, 'the arguments differ from the recorded effect at this slot')
    if row['output_mapping_digest'] != mapping_digest:
        return _refuse('output_mapping_changed', effect_id, 'the output-mapping configuration differs from the one the effect ran under')
    if row['result_json'] is None:
        return _refuse('result_not_retained', effect_id, 'the effect committed but its result was not retained')
    result = _parse_recorded(row['result_json'])
    if result is None:
        return _refuse('result_corrupt', effect_id, 'the stored result is not a readable recorded result')
    return {'verdict': 'replay', 'effectId': effect_id, 'result': result}


# Settles a prepared row as committed (result retained for run rows only) or ambiguous.
def settle(ctx, req):
    def body(conn):
        row = _require_row(conn, req['effectId'], 'settle_no_row')
        if row['state'] != 'prepared':
            raise JournalError('settle_already_settled', f"effect {req['effectId']} is {row['state']}, not prepared")
        # Injected before any write so the failed settle leaves the row exactly as prepare wrote it.
        if 'settle_write_fails' in ctx.faults:
            raise JournalError('settle_write_failed', f"injected fault: the settle write for effect {req['effectId']} failed")
        now = ctx.now()
        if req['state'] == 'committed':
            # A session row never holds a result: the supplied one is not even serialized (spec 11).
            keep = row['scope_kind'] == 'run' and req['result'] is not None
            result_json = canonical_json(req['result']) if keep else None
            conn.execute("UPDATE run_effects SET state = 'committed', result_json = ?, updated_at = ? WHERE id = ?",
                         (result_json, now, row['id']))
        else:
            conn.execute("UPDATE run_effects SET state = 'ambiguous', ambiguous_reason = ?, updated_at = ? WHERE id = ?",
                         (req['reason'], now, row['id']))
        return {'effectId': str(row['id']), 'state': req['state']}
    return store.write_transaction(ctx.conn, body)


# Decides pass / reconcile / refuse over every row of (runId, nodeId), whatever its attempt.
def gate(ctx, req):
    if 'gate_read_fails' in ctx.faults:
        # An unreadable journal is a refusal, never a pass (spec 4).
        return {'decision': 'refuse', 'effects': [], 'refusal': {'code': 'gate_read_failed', 'tier': None, 'effectIds': [],
                'message': 'the effect journal could not be read; resuming is refused'}}
    sql = "SELECT * FROM run_effects WHERE scope_kind = 'run' AND run_id = ? AND node_id = ? ORDER BY slot, id"
    rows = store.read_transaction(ctx.conn, lambda conn: conn.execute(sql, (req['scope']['runId'], req['scope']['nodeId'])).fetchall())
    to_attention = [r for r in rows if r['tier'] == 3 and r['resolution'] is None and r['state'] in ('prepared', 'ambiguous')]
    if to_attention:
        _mark_needs_attention(ctx, to_attention)
    moved = {r['id'] for r in to_attention}
    reconciling = ctx.tier_mode == 'reconciling'
    effects = [{'effectId': str(r['id']), 'slot': r['slot'], 'toolId': r['tool_id'], 'tier': r['tier'],
                'state': 'needs_attention' if r['id'] in moved else r['state'], 'action': gate_action(r, reconciling),
                'idempotencyKey': r['idempotency_key']} for r in rows]
    refused = [e for e in effects if e['action'] == 'needs_attention']
    if refused:
        ids = [e['effectId'] for e in refused]
        tier = refused[0]['tier']
        return {'decision': 'refuse', 'effects': effects, 'refusal': {'code': 'effect_needs_attention', 'tier': tier,
                'effectIds': ids, 'message': _refusal_message(tier, reconciling, ids)}}
    reconcile_needed = any(e['action'] in ('retry_with_key', 'reconcile_receipt') for e in effects)
    return {'decision': 'reconcile' if reconcile_needed else 'pass', 'effects': effects, 'refusal': None}


# What the gate does with one row; a committed row without a retained result blocks like an unresolved one.
def gate_action(row, reconciling):
    if row['state'] == 'committed' and row['result_json'] is not None:
        return 'replay'
    if row['resolution'] == 'accepted':
        return 'none'
    if row['resolution'] == 'discarded':
        return 'run_again'
    if not reconciling or row['tier'] == 3:
        return 'needs_attention'
    return 'retry_with_key' if row['tier'] == 1 else 'reconcile_receipt'


# A terminal run can no longer be resumed: its committed rows go, unresolved rows never do.
def run_terminal(ctx, run_id):
    deleted = store.write_transaction(ctx.conn, lambda conn: conn.execute(
        "DELETE FROM run_effects WHERE scope_kind = 'run' AND run_id = ? AND state = 'committed'", (run_id,)).rowcount)
    store.checkpoint_truncate(ctx.conn)
    return {'deleted': deleted}


def _mark_needs_attention(ctx, rows):
    now = ctx.now()

    def body(conn):
        for row in rows:
            conn.execute("""UPDATE run_effects SET state = 'needs_attention', updated_at = ?
                              WHERE id = ? AND resolution IS NULL AND state IN ('prepared', 'ambiguous')""", (now, row['id']))
    store.write_transaction(ctx.conn, body)


def _refusal_message(tier, reconciling, ids):
    joined = ', '.join(ids)
    if tier == 3:
        return f'tier 3 effect(s) {joined} need attention: the target is opaque and is never retried; an operator must check it and resolve the row'
    reconciler = 'retry under the stored idempotency key' if tier == 1 else 'receipt lookup'
    if reconciling:
        return f'tier {tier} effect(s) {joined} need attention'
    return (f'tier {tier} effect(s) {joined} need attention: the tier {tier} reconciler ({reconciler}) is not available '
            f'in conservative mode, so tier {tier} is refused like tier 3')


def _parse_recorded(text):
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if not isinstance(value, dict) or 'outputMappingResult' not in value:
        return None
    if not isinstance(value.get('modelValue'), str) or not isinstance(value.get('summary'), str) or not isinstance(value.get('truncated'), bool):
        return None
    return {k: value[k] for k in ('modelValue', 'truncated', 'summary', 'outputMappingResult')}


def _insert_prepared(ctx, conn, req, cols, digest, mapping_digest):
    now = ctx.now()
    c, audit = req['correlation'], req['audit']
    node_attempt = c['attempt'] if c['kind'] == 'run' else None
    cursor = conn.execute(
        """INSERT INTO run_effects (scope_kind, run_id, node_id, session_id, turn, slot, tool_id, tier, state, args_digest,
             output_mapping_digest, node_attempt, provider_attempt, call_id, owner_id, generation, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'prepared', ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        (*cols, req['slot'], req['toolId'], req['tier'], digest, mapping_digest, node_attempt,
         audit['providerAttempt'], audit['callId'], audit['ownerId'], audit['generation'], now, now))
    return cursor.lastrowid


# Equality per scope kind (never IS on parameters) so the lookup stays on an index.
def _find_by_identity(conn, scope, slot, tool_id):
    if scope['kind'] == 'run':
        return conn.execute("SELECT * FROM run_effects WHERE scope_kind = 'run' AND run_id = ? AND node_id = ? AND slot = ? AND tool_id = ?",
                            (scope['runId'], scope['nodeId'], slot, tool_id)).fetchone()
    return conn.execute("SELECT * FROM run_effects WHERE scope_kind = 'session' AND session_id = ? AND turn = ? AND slot = ? AND tool_id = ?",
                        (scope['sessionId'], scope['turn'], slot, tool_id)).fetchone()


def _require_row(conn, effect_id, code):
    row = store.row_by_id(conn, effect_id)
    if row is None:
        raise JournalError(code, f'no effect row with id {json.dumps(effect_id)}')
    return row


def _refuse(code, effect_id, message):
    return {'verdict': 'refuse', 'code': code, 'effectId': effect_id, 'message': message}
