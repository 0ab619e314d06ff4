"""Request-param validation mirroring the zod schemas in harness/protocol/schemas.ts.

Each op's validator returns the params it needs, normalized; a bad field raises Invalid naming it.
"""
import math

_MAX_SAFE = 2 ** 53 - 1
TIERS = (1, 2, 3)
STATES = ('prepared', 'committed', 'ambiguous', 'needs_attention')
FAULTS = ('settle_write_fails', 'gate_read_fails', 'session_read_fails', 'checkpoint_blocked_by_reader',
          'sweep_fails_after_first_chunk')
TURN_STATUSES = ('completed', 'errored', 'aborted', 'missing_terminal', 'orphan')


class Invalid(Exception):
    """A request field that does not match the protocol schema; answered as `unsupported`."""

    code = 'invalid_params'

    def __init__(self, path, message):
        super().__init__(f'{path}: {message}')


# The validators of every op that takes params; ops missing here take an empty object.
def validators():
    return {
        'open': lambda p: {'dir': string(p, 'dir'), 'armed': [text(x, f'armedCrashPoints[{i}]', 0) for i, x in enumerate(array(p, 'armedCrashPoints'))]},
        'prepare': prepare,
        'settle': settle,
        'gate': lambda p: {'scope': run_scope(field(p, 'scope'), 'scope'), **({'attempt': integer(p['attempt'], 'attempt', 1)} if 'attempt' in p else {})},
        'reconcile': reconcile,
        'resolve': lambda p: {'effectId': string(p, 'effectId'), 'decision': enum(p, 'decision', ('accepted', 'discarded')), 'actor': string(p, 'actor')},
        'runTerminal': lambda p: {'runId': string(p, 'runId')},
        'sessionRead': lambda p: {'sessionId': string(p, 'sessionId'), 'transcript': [turn(t, f'transcript[{i}]') for i, t in enumerate(array(p, 'transcript'))]},
        'sessionSweep': session_sweep,
        'fault': lambda p: {'fault': enum(p, 'fault', FAULTS), 'enabled': boolean(p, 'enabled')},
        'seed': lambda p: {'rows': [seed_row(r, f'rows[{i}]') for i, r in enumerate(array(p, 'rows'))]},
    }


def prepare(p):
    c = obj(field(p, 'correlation'), 'correlation')
    kind = enum(c, 'kind', ('run', 'session'), 'correlation.kind')
    if kind == 'run':
        corr = {'kind': 'run', 'runId': string(c, 'runId', 1, 'correlation.runId'), 'nodeId': string(c, 'nodeId', 1, 'correlation.nodeId'),
                'attempt': integer(field(c, 'attempt', 'correlation.attempt'), 'correlation.attempt', 1)}
    else:
        corr = {'kind': 'session', 'sessionId': string(c, 'sessionId', 1, 'correlation.sessionId'),
                'turn': integer(field(c, 'turn', 'correlation.turn'), 'correlation.turn', 0)}
    a = obj(field(p, 'audit'), 'audit')
    out = {
        'correlation': corr, 'slot': integer(field(p, 'slot'), 'slot'), 'toolId': string(p, 'toolId'),
        'tier': tier(field(p, 'tier'), 'tier'), 'args': obj(field(p, 'args'), 'args'),
        'secretArgKeys': [text(k, f'secretArgKeys[{i}]', 0) for i, k in enumerate(array(p, 'secretArgKeys'))],
        'audit': {'providerAttempt': integer(field(a, 'providerAttempt', 'audit.providerAttempt'), 'audit.providerAttempt', 0),
                  'callId': string(a, 'callId', 1, 'audit.callId'), 'ownerId': string(a, 'ownerId', 1, 'audit.ownerId'),
                  'generation': integer(field(a, 'generation', 'audit.generation'), 'audit.generation', 0)},
    }
    if 'outputMappingConfig' in p:
        out['outputMappingConfig'] = p['outputMappingConfig']
    return out


def settle(p):
    state = enum(p, 'state', ('committed', 'ambiguous'))
    out = {'effectId': string(p, 'effectId'), 'state': state}
    if state == 'committed':
        result = field(p, 'result')
        out['result'] = None if result is None else recorded_result(result, 'result')
    else:
        out['reason'] = string(p, 'reason', 0)
    return out


def reconcile(p):
    e = obj(field(p, 'evidence'), 'evidence')
    kind = enum(e, 'kind', ('receipt_found', 'receipt_absent', 'retried_with_key'), 'evidence.kind')
    evidence = {'kind': kind}
    if kind != 'receipt_absent':
        evidence['result'] = recorded_result(field(e, 'result', 'evidence.result'), 'evidence.result')
    return {'effectId': string(p, 'effectId'), 'evidence': evidence}


def session_sweep(p):
    out = {'sessionId': string(p, 'sessionId'), 'captured': [captured(r, f'captured[{i}]') for i, r in enumerate(array(p, 'captured'))]}
    if 'insideOuterTransaction' in p:
        out['insideOuterTransaction'] = boolean(p, 'insideOuterTransaction')
    return out


# A RecordedResult: the projections a run row re-delivers on replay; None when it does not match.
def recorded_result(value, path):
    r = obj(value, path)
    return {'modelValue': string(r, 'modelValue', 0, f'{path}.modelValue'), 'truncated': boolean(r, 'truncated', f'{path}.truncated'),
            'summary': string(r, 'summary', 0, f'{path}.summary'), 'outputMappingResult': field(r, 'outputMappingResult', f'{path}.outputMappingResult')}


def run_scope(value, path):
    s = obj(value, path)
    enum(s, 'kind', ('run',), f'{path}.kind')
    return {'kind': 'run', 'runId': string(s, 'runId', 1, f'{path}.runId'), 'nodeId': string(s, 'nodeId', 1, f'{path}.nodeId')}


def scope(value, path):
    s = obj(value, path)
    if enum(s, 'kind', ('run', 'session'), f'{path}.kind') == 'run':
        return run_scope(s, path)
    return {'kind': 'session', 'sessionId': string(s, 'sessionId', 1, f'{path}.sessionId'),
            'turn': integer(field(s, 'turn', f'{path}.turn'), f'{path}.turn', 0)}


def turn(value, path):
    t = obj(value, path)
    calls = []
    for i, c in enumerate(array(t, 'calls', f'{path}.calls')):
        call = obj(c, f'{path}.calls[{i}]')
        calls.append({'callId': string(call, 'callId', 0, f'{path}.calls[{i}].callId'), 'toolName': string(call, 'toolName', 0, f'{path}.calls[{i}].toolName')})
    return {'turn': integer(field(t, 'turn', f'{path}.turn'), f'{path}.turn', 0), 'status': enum(t, 'status', TURN_STATUSES, f'{path}.status'),
            'compacted': boolean(t, 'compacted', f'{path}.compacted'), 'calls': calls}


def captured(value, path):
    r = obj(value, path)
    enum(r, 'state', ('committed',), f'{path}.state')
    return {'effectId': string(r, 'effectId', 1, f'{path}.effectId'), 'sessionId': string(r, 'sessionId', 1, f'{path}.sessionId'),
            'turn': integer(field(r, 'turn', f'{path}.turn'), f'{path}.turn', 0), 'slot': integer(field(r, 'slot', f'{path}.slot'), f'{path}.slot'),
            'toolId': string(r, 'toolId', 1, f'{path}.toolId'), 'state': 'committed'}


def seed_row(value, path):
    r = obj(value, path)
    result_json = field(r, 'resultJson', f'{path}.resultJson')
    if result_json is not None and not isinstance(result_json, str):
        raise Invalid(f'params.{path}.resultJson', 'expected string or null')
    return {'scope': scope(field(r, 'scope', f'{path}.scope'), f'{path}.scope'), 'slot': integer(field(r, 'slot', f'{path}.slot'), f'{path}.slot'),
            'toolId': string(r, 'toolId', 1, f'{path}.toolId'), 'tier': tier(field(r, 'tier', f'{path}.tier'), f'{path}.tier'),
            'state': enum(r, 'state', STATES, f'{path}.state'), 'argsDigest': string(r, 'argsDigest', 0, f'{path}.argsDigest'),
            'callId': string(r, 'callId', 1, f'{path}.callId'), 'resultJson': result_json}


def obj(value, path):
    if not isinstance(value, dict):
        raise Invalid(f'params.{path}' if path else 'params', 'expected object')
    return value


def field(container, key, path=None):
    if key not in container:
        raise Invalid(f'params.{path or key}', 'required')
    return container[key]


def array(container, key, path=None):
    value = field(container, key, path)
    if not isinstance(value, list):
        raise Invalid(f'params.{path or key}', 'expected array')
    return value


def string(container, key, min_length=1, path=None):
    return text(field(container, key, path), path or key, min_length)


def text(value, path, min_length=1):
    where = f'params.{path}'
    if not isinstance(value, str):
        raise Invalid(where, 'expected string')
    if len(value) < min_length:
        raise Invalid(where, f'expected at least {min_length} character(s)')
    return value


def boolean(container, key, path=None):
    value = field(container, key, path)
    if not isinstance(value, bool):
        raise Invalid(f'params.{path or key}', 'expected boolean')
    return value


def enum(container, key, options, path=None):
    value = field(container, key, path)
    if value not in options or not isinstance(value, str):
        raise Invalid(f'params.{path or key}', f'expected one of {", ".join(options)}')
    return value


# A JSON integer as zod's .int() sees it: any safe integer, 3.0 included, never a boolean.
def integer(value, path, minimum=None):
    where = f'params.{path}'
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Invalid(where, 'expected integer')
    if isinstance(value, float) and (not math.isfinite(value) or not value.is_integer()):
        raise Invalid(where, 'expected integer')
    number = int(value)
    if abs(number) > _MAX_SAFE:
        raise Invalid(where, 'expected a safe integer')
    if minimum is not None and number < minimum:
        raise Invalid(where, f'expected >= {minimum}')
    return number


def tier(value, path):
    number = integer(value, path)
    if number not in TIERS:
        raise Invalid(f'params.{path}', 'expected 1, 2 or 3')
    return number
