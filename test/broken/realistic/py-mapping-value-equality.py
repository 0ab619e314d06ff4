#!/usr/bin/env python3
"""The Python journal keeping the output-mapping configuration itself instead of its digest.

The author's reason: an operator looking at a refused replay wants to read which mapping the effect ran under, and
a config is not a secret (it is redacted like one anyway). Replay compares the stored config with the new one as
Python values, `json.loads(stored) == config`, "so key order and whitespace cannot matter". Python's == takes True for
1 and False for 0 (bool is an int), so a node whose mapping flag changed from 1 to true in the crash window replays
an answer recorded under the other configuration (spec 4: a replay is refused when the configuration differs).
"""
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', 'examples', 'python-journal')))

import journal  # noqa: E402
import ops  # noqa: E402
import store  # noqa: E402
from canonical import canonical_json, sha256_hex  # noqa: E402
from redact import redact_args, redact_value  # noqa: E402

CONFIG_FORM = 'cfg:'


def prepare(ctx, req):
    digest = ops.DIGEST_VERSION + sha256_hex(canonical_json(redact_args(req['args'], req['secretArgKeys'])))
    config = redact_value(req['outputMappingConfig'] if 'outputMappingConfig' in req else ops._NO_OUTPUT_MAPPING)
    stored_config = CONFIG_FORM + canonical_json(config)
    c = req['correlation']
    scope = {'kind': 'run', 'runId': c['runId'], 'nodeId': c['nodeId']} if c['kind'] == 'run' else \
        {'kind': 'session', 'sessionId': c['sessionId'], 'turn': c['turn']}

    def body(conn):
        existing = ops._find_by_identity(conn, scope, req['slot'], req['toolId'])
        replaces = None
        if existing is not None:
            stored = existing['output_mapping_digest']
            same = stored is not None and stored.startswith(CONFIG_FORM) and json.loads(stored[len(CONFIG_FORM):]) == config
            # The example's judgement, told whether the configs are equal: a differing one refuses where it always did.
            decided = ops.judge_existing(existing, digest, stored if same else f'{stored}:changed')
            if decided is not None:
                return decided
            conn.execute('DELETE FROM run_effects WHERE id = ?', (existing['id'],))
            replaces = existing['idempotency_key'] or f"discarded:{existing['id']}"
        row_id = ops._insert_prepared(ctx, conn, req, store.scope_columns(scope), digest, stored_config)
        identity = {'scope': scope, 'slot': req['slot'], 'toolId': req['toolId']}
        key = 'ik-' + sha256_hex(canonical_json({'identity': identity, 'id': row_id, 'replaces': replaces}))[:32]
        conn.execute('UPDATE run_effects SET idempotency_key = ? WHERE id = ?', (key, row_id))
        return {'verdict': 'proceed', 'effectId': str(row_id), 'idempotencyKey': key}

    try:
        return store.write_transaction(ctx.conn, body)
    except Exception as error:
        if store.is_unique_violation(error):
            return ops._refuse('duplicate_identity', None, 'another writer prepared this identity first')
        raise


ops.prepare = prepare

if __name__ == '__main__':
    sys.exit(journal.main(sys.argv[1:]))
