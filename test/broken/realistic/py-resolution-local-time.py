#!/usr/bin/env python3
"""The Python journal stamping rows with the time as its author first wrote it:
datetime.now().isoformat(timespec='milliseconds') + 'Z'.

datetime.now() is the machine's local time, naive; the 'Z' says it is UTC. On a machine whose zone is UTC (every CI
runner the author tried) the stamp is right; anywhere else every operator resolution (spec 8: "the resolution is
written to the row with the actor and a timestamp") and every updated_at is off by the zone's offset, hours before or
after the resolve call it records.
"""
import datetime
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', 'examples', 'python-journal')))

import journal  # noqa: E402


def now():
    return datetime.datetime.now().isoformat(timespec='milliseconds') + 'Z'


journal.Context.now = staticmethod(now)

if __name__ == '__main__':
    sys.exit(journal.main(sys.argv[1:]))
