"""The ejc wire protocol on stdin/stdout: newline-delimited JSON, one request in flight, logs on stderr."""
import json
import sys

import validate


# The protocol loop: one request at a time, one response each; bad lines are logged, never fatal.
def serve(journal, stdin, stdout, operations):
    validators = validate.validators()
    for raw in iter(stdin.readline, b''):
        message = _parse_line(raw)
        if message is None:
            continue
        request_id, op, params = message
        if op not in operations:
            answer = fail('unsupported', f'invalid request: op: unknown operation {op!r}')
        else:
            answer = journal.dispatch(op, params, validators.get(op))
        stdout.write(json.dumps({'type': 'response', 'id': request_id, **answer}, separators=(',', ':')) + '\n')
        stdout.flush()
    journal.close_quietly()


# One stdin line as (id, op, params), or None for a line that is not an answerable request.
def _parse_line(raw):
    try:
        line = raw.decode('utf-8').rstrip('\n').rstrip('\r')
    except UnicodeDecodeError:
        log('ignoring a line that is not UTF-8')
        return None
    if line.strip() == '':
        return None
    try:
        message = json.loads(line, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        log(f'ignoring an invalid JSON line: {line[:200]}')
        return None
    if not isinstance(message, dict) or message.get('type') != 'request':
        what = 'a resume while not blocked at a crash point' if isinstance(message, dict) and message.get('type') == 'resume' else 'a line that is not a request'
        log(f'ignoring {what}: {line[:200]}')
        return None
    try:
        request_id = validate.integer(message.get('id'), 'id', 1)
    except validate.Invalid:
        log(f'ignoring a request without a valid id: {line[:200]}')
        return None
    return request_id, message.get('op'), message.get('params')


def _reject_constant(name):
    raise ValueError(f'{name} is not JSON')


def ok(result):
    return {'ok': True, 'result': result}


def fail(code, message):
    return {'ok': False, 'error': {'code': code, 'message': message}}


def log(text):
    sys.stderr.write(f'ejc-python-journal: {text}\n')
    sys.stderr.flush()
