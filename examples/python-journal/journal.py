#!/usr/bin/env python3
"""An effect journal on Python's standard sqlite3, speaking the ejc wire protocol on stdin/stdout.

Run it under the harness (an absolute path: drivers start inside each trial directory):
  ejc run --cmd "python3 $PWD/examples/python-journal/journal.py"
Flags: --tier-mode conservative|reconciling (default conservative).
"""
import argparse
import datetime
import os
import sys
import traceback

# Importing the sibling modules must not leave __pycache__ directories in the tree.
sys.dont_write_bytecode = True

from errors import JournalError  # noqa: E402
from protocol import fail as _fail, log as _log, ok as _ok, serve  # noqa: E402
import ops  # noqa: E402
import resolution  # noqa: E402
import sessions  # noqa: E402
import store  # noqa: E402
import validate  # noqa: E402

NAME = 'ejc-python-journal'
VERSION = '0.1.0'
PROTOCOL_VERSION = 1
DB_FILE_NAME = 'journal.sqlite'
OPERATIONS = ('hello', 'open', 'close', 'prepare', 'settle', 'gate', 'reconcile', 'resolve', 'runTerminal',
              'sessionRead', 'sessionSweep', 'checkpoint', 'listEffects', 'files', 'fault', 'seed')


# Parses the flags, then serves the protocol until stdin reaches EOF.
def main(argv=None):
    parser = argparse.ArgumentParser(description='ejc effect journal on sqlite3 (wire protocol on stdin/stdout)')
    parser.add_argument('--tier-mode', choices=('conservative', 'reconciling'), default='conservative')
    args = parser.parse_args(argv)
    serve(Journal(args.tier_mode), sys.stdin.buffer, sys.stdout, OPERATIONS)
    return 0


class Context:
    """What every operation needs from the open journal."""

    def __init__(self, conn, tier_mode, faults):
        self.conn = conn
        self.tier_mode = tier_mode
        self.faults = faults

    # The wall-clock time as JavaScript's toISOString writes it.
    @staticmethod
    def now():
        stamp = datetime.datetime.now(datetime.timezone.utc)
        return stamp.strftime('%Y-%m-%dT%H:%M:%S.') + f'{stamp.microsecond // 1000:03d}Z'


class Journal:
    """Binds the operation modules to one SQLite file and its WAL."""

    def __init__(self, tier_mode):
        self.tier_mode = tier_mode
        self.faults = set()
        self.ctx = None
        self.path = None
        self.reader = None

    def capabilities(self):
        return {'crashPoints': [], 'faults': list(validate.FAULTS), 'tierMode': self.tier_mode,
                'sessions': True, 'seeding': True, 'outerTransactionProbe': True,
                'resolution': True, 'sweepChunkSize': sessions.DEFAULT_SWEEP_CHUNK, 'sqliteWal': True}

    # Validates params, runs the op, and turns every outcome into a response body.
    def dispatch(self, op, params, validator):
        try:
            if op == 'hello':
                return _ok({'name': NAME, 'version': VERSION, 'protocolVersion': PROTOCOL_VERSION, 'capabilities': self.capabilities()})
            if params is None:
                params = {}
            if not isinstance(params, dict):
                raise validate.Invalid('params', 'expected object')
            req = validator(params) if validator else {}
            return _ok(getattr(self, 'op_' + op)(req))
        except validate.Invalid as error:
            return _fail('unsupported', f'invalid {op} request: {error}')
        except JournalError as error:
            return _fail(error.code, error.message)
        except Exception as error:  # noqa: BLE001 - any failure answers `internal`, never kills the driver
            _log(f'{op} failed:\n{traceback.format_exc()}')
            return _fail('internal', f'{op} failed: {type(error).__name__}: {error}')

    def op_open(self, req):
        if self.ctx is not None:
            raise JournalError('internal', 'the journal is already open')
        path = os.path.abspath(os.path.join(req['dir'], DB_FILE_NAME))
        conn = store.open_connection(path)
        try:
            conn.executescript(store.DDL)
            sessions.clear_legacy_session_results(conn)
        except BaseException:
            conn.close()
            raise
        self.path = path
        self.ctx = Context(conn, self.tier_mode, self.faults)
        return self.op_files({})

    def op_close(self, _req):
        self.close_quietly(raise_errors=True)
        return {}

    def op_prepare(self, req):
        return ops.prepare(self._open(), req)

    def op_settle(self, req):
        return ops.settle(self._open(), req)

    def op_gate(self, req):
        return ops.gate(self._open(), req)

    def op_reconcile(self, req):
        return resolution.reconcile(self._open(), req)

    def op_resolve(self, req):
        return resolution.resolve(self._open(), req)

    def op_runTerminal(self, req):  # noqa: N802 - named after the wire op
        return ops.run_terminal(self._open(), req['runId'])

    def op_sessionRead(self, req):  # noqa: N802
        return sessions.session_read(self._open(), req)

    def op_sessionSweep(self, req):  # noqa: N802
        return sessions.session_sweep(self._open(), req)

    def op_checkpoint(self, _req):
        return {'checkpoint': store.checkpoint_truncate(self._open().conn)}

    def op_listEffects(self, _req):  # noqa: N802
        return {'effects': sessions.list_effects(self._open().conn)}

    def op_files(self, _req):
        if self.path is None:
            raise JournalError('not_open', 'the journal has not been opened')
        return {'files': [self.path, self.path + '-wal']}

    def op_fault(self, req):
        fault = req['fault']
        if fault not in self.capabilities()['faults']:
            raise JournalError('unsupported', f'fault {fault} is not offered by this journal')
        self._open()
        if req['enabled']:
            self.faults.add(fault)
        else:
            self.faults.discard(fault)
        if fault == 'checkpoint_blocked_by_reader':
            if req['enabled'] and self.reader is None:
                self.reader = _blocked_reader(self.path)
            elif not req['enabled']:
                self._release_reader()
        return {}

    def op_seed(self, req):
        return {'effectIds': sessions.seed(self._open().conn, req['rows'], Context.now())}

    # Closes an open journal; at EOF errors are only logged.
    def close_quietly(self, raise_errors=False):
        try:
            self._release_reader()
            if self.ctx is not None:
                self.ctx.conn.close()
        except Exception as error:  # noqa: BLE001
            if raise_errors:
                raise
            _log(f'close failed: {error}')
        finally:
            self.ctx = None

    def _open(self):
        if self.ctx is None:
            raise JournalError('not_open', 'the journal has not been opened')
        return self.ctx

    def _release_reader(self):
        reader, self.reader = self.reader, None
        if reader is not None:
            try:
                if reader.in_transaction:
                    reader.execute('COMMIT')
            finally:
                reader.close()


# A second connection holding an open read transaction, so wal_checkpoint(TRUNCATE) must report busy.
def _blocked_reader(path):
    conn = store.open_connection(path)
    try:
        conn.execute('BEGIN')
        # The snapshot is taken by the first read, not by BEGIN.
        conn.execute('SELECT count(*) FROM run_effects').fetchall()
    except BaseException:
        conn.close()
        raise
    return conn


if __name__ == '__main__':
    sys.exit(main())
