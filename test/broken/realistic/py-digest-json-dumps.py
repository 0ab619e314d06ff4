#!/usr/bin/env python3
"""The Python journal with the canonical JSON every Python author reaches for first:
json.dumps(sort_keys=True, separators=(',', ':'), ensure_ascii=False).

Keys are sorted and there is no whitespace, as spec 11 says, but numbers are Python's repr, not JavaScript's: 1e-07
where the engine writes 1e-7, 1e-06 for 0.000001, 1e+16 for 10000000000000000.0. The v5 digest of any argument holding
such a number differs from the one the engine and every other writer compute, so a replay from another writer's row is
refused and two writers disagree on the identity of one call.
"""
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', 'examples', 'python-journal')))

import journal  # noqa: E402
import ops  # noqa: E402


def canonical_json(value):
    return json.dumps(value, sort_keys=True, separators=(',', ':'), ensure_ascii=False, allow_nan=False)


ops.canonical_json = canonical_json

if __name__ == '__main__':
    sys.exit(journal.main(sys.argv[1:]))
