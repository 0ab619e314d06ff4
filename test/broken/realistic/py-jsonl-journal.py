#!/usr/bin/env python3
"""An effect journal written from the contract alone, on a JSON-lines log: one record per line, written with os.pwrite
at the log's end and fsynced, under an flock on a lock file (released by the kernel when a holder dies), so two
processes on one directory take turns and each catches up on the other's records before it decides. A terminal
sweep erases the swept results' bytes in place. Runs only, conservative tiers, with operator resolution.

The digest is the Python example journal's (examples/python-journal: canonical.py, redact.py), its request
validation too; the wire loop, the store and every decision are this file's.

BUGS holds the author's mistakes a variant switches on before main() (py-jsonl-*.py):
  settle-at-cached-end  settle appends at the end this process last saw, without the lock: "a settle only touches
                        the row this process prepared, nobody else can be deciding anything about it". Another
                        process's records appended since are overwritten.
  erase-once            the terminal sweep erases the swept results right after its delete record, and nothing
                        erases them later: "the sweep erases what it deletes". A sweep killed between the two leaves
                        the bytes, and every later checkpoint answers complete over them.
"""
import fcntl
import json
import os
import sys
import uuid
from datetime import datetime, timezone

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', 'examples', 'python-journal')))

import validate  # noqa: E402
from canonical import canonical_json, sha256_hex  # noqa: E402
from redact import redact_args, redact_value  # noqa: E402

BUGS = set()
NAME = 'py-jsonl-journal'
POINTS = ['prepare.before-commit', 'prepare.after-commit', 'settle.before-commit', 'settle.after-commit', 'run-sweep.before-commit']
FAULTS = ['settle_write_fails', 'gate_read_fails']
NO_MAPPING = {'blind3:output-mapping': 'absent'}


class Refusal(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


class Log:
    """The log file, what this process has read of it, and the rows it folds to."""

    def __init__(self, directory, wire):
        self.path = os.path.join(directory, 'effects.jsonl')
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        self.lock_fd = os.open(os.path.join(directory, 'effects.lock'), os.O_RDWR | os.O_CREAT, 0o644)
        self.wire = wire
        self.end = 0
        self.rows = {}
        # Result spans of deleted rows: erased by the sweep that deleted them, and again at every open and checkpoint,
        # since a sweep killed between its delete record and its erasure leaves the bytes (§11: later opens retry).
        self.freed = []
        with self.locked():
            self.catch_up()
            # A tail without its newline is a record whose writer died mid-write: nobody else is writing (we hold the lock).
            if os.fstat(self.fd).st_size > self.end:
                os.ftruncate(self.fd, self.end)
                os.fsync(self.fd)
            if 'erase-once' not in BUGS:
                self.erase_freed()

    def close(self):
        os.close(self.fd)
        os.close(self.lock_fd)

    def locked(self):
        log = self

        class Held:
            def __enter__(self):
                fcntl.flock(log.lock_fd, fcntl.LOCK_EX)

            def __exit__(self, *exc):
                fcntl.flock(log.lock_fd, fcntl.LOCK_UN)
        return Held()

    # Folds every complete line appended since this process last read.
    def catch_up(self):
        size = os.fstat(self.fd).st_size
        if size <= self.end:
            return
        data = os.pread(self.fd, size - self.end, self.end)
        offset = self.end
        while True:
            nl = data.find(b'\n', offset - self.end)
            if nl < 0:
                break
            line = data[offset - self.end:nl]
            self.apply(line, offset)
            offset = self.end + nl + 1
        self.end = offset

    def apply(self, line, offset):
        try:
            record = json.loads(line)
        except ValueError:
            return  # a torn or erased record
        kind = record.get('t')
        if kind == 'prepare':
            self.rows[record['row']['effectId']] = dict(record['row'], resultSpan=None)
        elif kind == 'update' and record['id'] in self.rows:
            row = self.rows[record['id']]
            row.update(record['set'])
            if 'result' in record['set'] and record['set']['result'] is not None:
                row['resultSpan'] = (offset, len(line))
        elif kind == 'delete':
            for effect_id in record['ids']:
                row = self.rows.pop(effect_id, None)
                if row is not None and row['resultSpan'] is not None:
                    self.freed.append(row['resultSpan'])

    # Appends records at the end in one write, synced, then folds them.
    def append(self, records, at=None):
        data = ''.join(json.dumps(r, separators=(',', ':')) + '\n' for r in records).encode('utf-8')
        start = self.end if at is None else at
        os.pwrite(self.fd, data, start)
        os.fsync(self.fd)
        offset = start
        for line in data.split(b'\n')[:-1]:
            self.apply(line, offset)
            offset += len(line) + 1
        self.end = max(self.end, offset)

    # Erases every freed span (again: an erased record stays erased), synced. Under the lock.
    def erase_freed(self):
        if not self.freed:
            return
        for span in self.freed:
            self.erase(span)
        os.fsync(self.fd)
        self.freed = []

    # Overwrites a record with spaces behind a marker of the same length: its bytes leave the file.
    def erase(self, span):
        offset, length = span
        filler = b'{"t":"erased"}'
        os.pwrite(self.fd, filler + b' ' * (length - len(filler)), offset)


class Journal:
    def __init__(self, wire):
        self.wire = wire
        self.log = None
        self.faults = set()

    def capabilities(self):
        return {'crashPoints': POINTS, 'faults': FAULTS, 'tierMode': 'conservative', 'sessions': False, 'seeding': False,
                'outerTransactionProbe': False, 'resolution': True, 'sqliteWal': False}

    def opened(self):
        if self.log is None:
            raise Refusal('not_open', 'the journal has not been opened')
        return self.log

    def op_open(self, req):
        if self.log is not None:
            raise Refusal('internal', 'already open')
        self.wire.armed = set(req['armed'])
        self.log = Log(req['dir'], self.wire)
        return self.op_files(req)

    def op_close(self, _req):
        if self.log is not None:
            self.log.close()
        self.log = None
        return {}

    def op_files(self, _req):
        log = self.opened()
        return {'files': [log.path, os.path.join(os.path.dirname(log.path), 'effects.lock')]}

    def op_prepare(self, req):
        log = self.opened()
        digest = 'v5:' + sha256_hex(canonical_json(redact_args(req['args'], req['secretArgKeys'])))
        mapping = 'v5:' + sha256_hex(canonical_json(redact_value(req['outputMappingConfig'] if 'outputMappingConfig' in req else NO_MAPPING)))
        c = req['correlation']
        scope = {'kind': 'run', 'runId': c['runId'], 'nodeId': c['nodeId']} if c['kind'] == 'run' else {'kind': 'session', 'sessionId': c['sessionId'], 'turn': c['turn']}
        with log.locked():
            log.catch_up()
            holder = self.holder(scope, req['slot'], req['toolId'])
            if holder is not None and (holder['resolution'] or {}).get('decision') != 'discarded':
                return judge(holder, digest, mapping)
            row = {'effectId': uuid.uuid4().hex[:16], 'scope': scope, 'slot': req['slot'], 'toolId': req['toolId'], 'tier': req['tier'],
                   'state': 'prepared', 'argsDigest': digest, 'mappingDigest': mapping, 'idempotencyKey': 'idk-' + uuid.uuid4().hex if req['tier'] == 1 else None,
                   'result': None, 'resolution': None, 'replaced': False,
                   'attempt': dict(req['audit'], nodeAttempt=c['attempt'] if c['kind'] == 'run' else None)}
            records = [{'t': 'prepare', 'row': row}]
            if holder is not None:
                records.insert(0, {'t': 'update', 'id': holder['effectId'], 'set': {'replaced': True}})
            self.wire.crashpoint('prepare.before-commit')
            log.append(records)
            self.wire.crashpoint('prepare.after-commit')
        return {'verdict': 'proceed', 'effectId': row['effectId'], 'idempotencyKey': row['idempotencyKey']}

    def holder(self, scope, slot, tool_id):
        for row in self.opened().rows.values():
            if row['scope'] == scope and row['slot'] == slot and row['toolId'] == tool_id and not row['replaced']:
                return row
        return None

    def op_settle(self, req):
        log = self.opened()

        def settle():
            row = log.rows.get(req['effectId'])
            if row is None:
                raise Refusal('settle_no_row', f"no effect {req['effectId']}")
            if row['state'] != 'prepared' or row['resolution'] is not None:
                raise Refusal('settle_already_settled', f"{req['effectId']} is {row['state']}")
            if 'settle_write_fails' in self.faults:
                raise Refusal('settle_write_failed', 'injected settle_write_fails: nothing was written')
            result = req.get('result') if req['state'] == 'committed' and row['scope']['kind'] == 'run' else None
            self.wire.crashpoint('settle.before-commit')
            log.append([{'t': 'update', 'id': row['effectId'], 'set': {'state': req['state'], 'result': result}}])
            self.wire.crashpoint('settle.after-commit')
            return {'effectId': row['effectId'], 'state': req['state']}
        if 'settle-at-cached-end' in BUGS:
            return settle()
        with log.locked():
            log.catch_up()
            return settle()

    def op_gate(self, req):
        log = self.opened()
        if 'gate_read_fails' in self.faults:
            return {'decision': 'refuse', 'effects': [], 'refusal': {'code': 'gate_read_failed', 'tier': None, 'effectIds': [], 'message': 'the log could not be read'}}
        log.catch_up()
        s = req['scope']
        mine = sorted((r for r in log.rows.values() if r['scope'] == {'kind': 'run', 'runId': s['runId'], 'nodeId': s['nodeId']}), key=lambda r: r['slot'])
        effects = [{'effectId': r['effectId'], 'slot': r['slot'], 'toolId': r['toolId'], 'tier': r['tier'], 'state': r['state'],
                    'action': action_of(r), 'idempotencyKey': r['idempotencyKey']} for r in mine]
        blocking = [r for r in mine if action_of(r) == 'needs_attention']
        if not blocking:
            return {'decision': 'pass', 'effects': effects, 'refusal': None}
        tier = max(r['tier'] for r in blocking)
        return {'decision': 'refuse', 'effects': effects, 'refusal': {'code': 'effect_needs_attention', 'tier': tier, 'effectIds': [r['effectId'] for r in blocking],
                                                                        'message': f'{len(blocking)} effect(s) need an operator (tier {tier})'}}

    def op_reconcile(self, _req):
        raise Refusal('reconcile_invalid', 'no tier 1/2 reconciler: tiers 1 and 2 take tier 3\'s refusal')

    def op_resolve(self, req):
        log = self.opened()
        with log.locked():
            log.catch_up()
            row = log.rows.get(req['effectId'])
            if row is None or row['state'] == 'committed' or row['resolution'] is not None:
                raise Refusal('resolve_invalid', f"{req['effectId']} has nothing to resolve")
            at = datetime.now(timezone.utc).isoformat(timespec='milliseconds').replace('+00:00', 'Z')
            log.append([{'t': 'update', 'id': row['effectId'], 'set': {'resolution': {'decision': req['decision'], 'actor': req['actor'], 'at': at}}}])
            return view(log.rows[row['effectId']])

    def op_runTerminal(self, req):  # noqa: N802 - the wire op's name
        log = self.opened()
        with log.locked():
            log.catch_up()
            swept = [r for r in log.rows.values() if r['scope']['kind'] == 'run' and r['scope']['runId'] == req['runId'] and r['state'] == 'committed']
            if not swept:
                return {'deleted': 0}
            spans = [r['resultSpan'] for r in swept if r['resultSpan'] is not None]
            self.wire.crashpoint('run-sweep.before-commit')
            log.append([{'t': 'delete', 'ids': [r['effectId'] for r in swept]}])
            if 'erase-once' in BUGS:
                log.freed = spans
            log.erase_freed()
            return {'deleted': len(swept)}

    def op_checkpoint(self, _req):
        log = self.opened()
        if 'erase-once' not in BUGS:
            with log.locked():
                log.catch_up()
                log.erase_freed()
        return {'checkpoint': 'complete'}

    def op_listEffects(self, _req):  # noqa: N802
        log = self.opened()
        log.catch_up()
        return {'effects': [view(r) for r in log.rows.values()]}

    def op_fault(self, req):
        self.opened()
        if req['fault'] not in FAULTS:
            raise Refusal('unsupported', f"fault {req['fault']} is not supported")
        (self.faults.add if req['enabled'] else self.faults.discard)(req['fault'])
        return {}

    def op_seed(self, _req):
        raise Refusal('seed_unsupported', 'this journal cannot plant legacy rows')


def judge(row, digest, mapping):
    def refuse(code, message):
        return {'verdict': 'refuse', 'code': code, 'effectId': row['effectId'], 'message': message}
    if row['scope']['kind'] == 'session':
        return refuse('session_never_replays' if row['state'] == 'committed' else 'duplicate_identity', 'a session effect never replays')
    if not row['argsDigest'].startswith('v5:'):
        return refuse('legacy_digest', 'the row has a legacy digest')
    if row['state'] != 'committed':
        return refuse('unresolved_prior_effect', f"the row holding this identity is {row['state']}")
    if row['argsDigest'] != digest:
        return refuse('args_mismatch', 'the arguments differ from the recorded call')
    if row['mappingDigest'] != mapping:
        return refuse('output_mapping_changed', 'the output mapping differs from the one the effect ran under')
    if row['result'] is None:
        return refuse('result_not_retained', 'the committed row kept no result')
    return {'verdict': 'replay', 'effectId': row['effectId'], 'result': row['result']}


def action_of(row):
    decision = (row['resolution'] or {}).get('decision')
    if decision == 'accepted':
        return 'none'
    if decision == 'discarded':
        return 'run_again'
    return 'replay' if row['state'] == 'committed' and row['result'] is not None else 'needs_attention'


def view(r):
    return {'effectId': r['effectId'], 'scope': r['scope'], 'slot': r['slot'], 'toolId': r['toolId'], 'tier': r['tier'], 'state': r['state'],
            'argsDigest': r['argsDigest'], 'idempotencyKey': r['idempotencyKey'], 'resultRetained': r['scope']['kind'] == 'run' and r['state'] == 'committed' and r['result'] is not None,
            'resolution': r['resolution'], 'attempt': r['attempt']}


class Wire:
    """stdin/stdout, one JSON object a line; a crash point blocks until the harness resumes it."""

    def __init__(self):
        self.stdin = sys.stdin.buffer
        self.stdout = sys.stdout
        self.seq = 0
        self.armed = set()

    def send(self, message):
        self.seq += 1
        self.stdout.write(json.dumps(message, separators=(',', ':')) + '\n')
        self.stdout.flush()

    def read(self):
        line = self.stdin.readline()
        if line:
            self.seq += 1
        return line

    def crashpoint(self, point):
        if point not in self.armed:
            return
        self.send({'type': 'crashpoint', 'point': point, 'seq': self.seq + 1})
        seq = self.seq
        while True:
            line = self.read()
            if not line:
                sys.exit(0)
            message = json.loads(line)
            if message.get('type') == 'resume' and message.get('seq') == seq:
                return


def main():
    global NAME
    NAME = NAME if not BUGS else 'realistic:' + NAME
    wire = Wire()
    journal = Journal(wire)
    checks = validate.validators()
    while True:
        line = wire.read()
        if not line:
            break
        if not line.strip():
            continue
        message = json.loads(line)
        op, params = message.get('op'), message.get('params') or {}
        try:
            if op == 'hello':
                result = {'name': NAME, 'version': '0.1.0', 'protocolVersion': 1, 'capabilities': journal.capabilities()}
            elif not hasattr(journal, 'op_' + op):
                raise Refusal('unsupported', f'{op} is not supported')
            else:
                if op != 'open':
                    journal.opened()
                result = getattr(journal, 'op_' + op)(checks[op](params) if op in checks else params)
            answer = {'ok': True, 'result': result}
        except Refusal as refusal:
            answer = {'ok': False, 'error': {'code': refusal.code, 'message': refusal.message}}
        except validate.Invalid as error:
            answer = {'ok': False, 'error': {'code': 'unsupported', 'message': f'invalid {op} request: {error}'}}
        except Exception as error:  # noqa: BLE001 - any failure answers internal, never kills the driver
            answer = {'ok': False, 'error': {'code': 'internal', 'message': f'{op} failed: {type(error).__name__}: {error}'}}
        wire.send({'type': 'response', 'id': message['id'], **answer})
    if journal.log is not None:
        journal.log.close()


if __name__ == '__main__':
    main()
