#!/usr/bin/env python3
"""The Python journal on a rollback journal kept in place (journal_mode = PERSIST) instead of WAL.

The author's reason: the journal directory may live on a network filesystem where WAL's shared memory is unsafe, and
PERSIST saves a file create and unlink per commit. secure_delete stays ON, so a deleted row's bytes are zeroed in the
main file, but each write transaction first copies the original pages into journal.sqlite-journal, whose header is
zeroed on commit while the page images stay: a swept run result or a cleared legacy session result survives there
(spec 11: after a successful checkpoint, freed bytes survive in no file of the journal).
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', 'examples', 'python-journal')))

import journal  # noqa: E402
import store  # noqa: E402
import validate  # noqa: E402

_real_open = store.open_connection


def open_connection(path):
    conn = _real_open(path)
    conn.execute('PRAGMA journal_mode = PERSIST').fetchall()
    return conn


# Without WAL there is nothing to truncate: every commit already wrote the main file, so a checkpoint is complete.
def checkpoint_truncate(_conn):
    return 'complete'


_real_capabilities = journal.Journal.capabilities


def capabilities(self):
    caps = _real_capabilities(self)
    caps['sqliteWal'] = False
    caps['faults'] = [f for f in caps['faults'] if f != 'checkpoint_blocked_by_reader']
    return caps


def op_files(self, _req):
    if self.path is None:
        raise journal.JournalError('not_open', 'the journal has not been opened')
    return {'files': [self.path, self.path + '-journal']}


store.open_connection = open_connection
store.checkpoint_truncate = checkpoint_truncate
journal.Journal.capabilities = capabilities
journal.Journal.op_files = op_files
validate.FAULTS = tuple(f for f in validate.FAULTS if f != 'checkpoint_blocked_by_reader')

if __name__ == '__main__':
    sys.exit(journal.main(sys.argv[1:]))
