"""reconcile (tiers 1/2, reconciling mode only) and operator resolution of unresolved rows."""
from canonical import canonical_json
from errors import JournalError
import store


# Applies target evidence to an unresolved or committed-unretained run row of tier 1 or 2.
def reconcile(ctx, req):
    if ctx.tier_mode != 'reconciling':
        raise JournalError('unsupported', 'this journal runs in conservative mode: no tier 1/2 reconciler exists')

    def body(conn):
        row = _require(conn, req['effectId'], 'reconcile_invalid')
        why = _rejection(row, req['evidence']['kind'])
        if why:
            raise JournalError('reconcile_invalid', f"cannot reconcile effect {req['effectId']}: {why}")
        now = ctx.now()
        evidence = req['evidence']
        if evidence['kind'] == 'receipt_absent':
            # Proven absent: the engine executes once under the stored key and settles this same row.
            conn.execute("UPDATE run_effects SET state = 'prepared', result_json = NULL, updated_at = ? WHERE id = ?", (now, row['id']))
            return {'effectId': str(row['id']), 'state': 'prepared', 'execute': {'idempotencyKey': row['idempotency_key'] or ''}}
        conn.execute("UPDATE run_effects SET state = 'committed', result_json = ?, updated_at = ? WHERE id = ?",
                     (canonical_json(evidence['result']), now, row['id']))
        return {'effectId': str(row['id']), 'state': 'committed', 'execute': None}
    return store.write_transaction(ctx.conn, body)


# Records an operator's accepted/discarded decision on an unresolved row, with actor and time.
def resolve(ctx, req):
    def body(conn):
        row = _require(conn, req['effectId'], 'resolve_invalid')
        if not store.is_unresolved(row):
            why = f"already resolved as {row['resolution']}" if row['resolution'] is not None else 'it is committed'
            raise JournalError('resolve_invalid', f"effect {req['effectId']} cannot be resolved: {why}")
        at = ctx.now()
        conn.execute('UPDATE run_effects SET resolution = ?, resolution_actor = ?, resolution_at = ?, updated_at = ? WHERE id = ?',
                     (req['decision'], req['actor'], at, at, row['id']))
        return store.to_effect_row(store.row_by_id(conn, req['effectId']))
    return store.write_transaction(ctx.conn, body)


def _require(conn, effect_id, code):
    row = store.row_by_id(conn, effect_id)
    if row is None:
        raise JournalError(code, f'no effect row with id {effect_id!r}')
    return row


def _rejection(row, kind):
    if row['scope_kind'] != 'run':
        return 'session effects are disclosed, never reconciled'
    unretained_commit = row['state'] == 'committed' and row['result_json'] is None
    if not store.is_unresolved(row) and not unretained_commit:
        suffix = f" ({row['resolution']})" if row['resolution'] else ''
        return f"it is {row['state']}{suffix} with nothing to reconcile"
    if row['idempotency_key'] is None:
        return 'it has no stored idempotency key'
    if row['tier'] == 1 and kind == 'retried_with_key':
        return None
    if row['tier'] == 2 and kind in ('receipt_found', 'receipt_absent'):
        return None
    return f"evidence {kind} does not apply to a tier {row['tier']} effect"
