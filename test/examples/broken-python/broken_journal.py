#!/usr/bin/env python3
"""A deliberately broken copy of examples/python-journal: the real journal with one function monkeypatched.

Usage: broken_journal.py --defect <name> [journal flags]. The harness must catch every defect here
(exit 1, nonconformant, the named scenario failing); test/examples/python-journal.test.ts proves it.
"""
import argparse
import os
import sys

# Importing the journal's modules must not leave __pycache__ directories in the tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', 'examples', 'python-journal')))

import journal  # noqa: E402
import ops  # noqa: E402
import sessions  # noqa: E402
import store  # noqa: E402

_real_gate_action = ops.gate_action
_real_session_sweep = sessions.session_sweep


# Treats every committed row as replayable: a committed row without a retained result waves the re-run through.
def gate_only_unresolved(row, reconciling):
    if row['state'] == 'committed':
        return 'replay'
    return _real_gate_action(row, reconciling)


# Deletes the session's unresolved rows along with the captured ones: evidence an operator needs is lost.
def session_sweeps_unresolved(ctx, req):
    store.write_transaction(ctx.conn, lambda conn: conn.execute(
        "DELETE FROM run_effects WHERE scope_kind = 'session' AND session_id = ? AND state != 'committed'", (req['sessionId'],)))
    return _real_session_sweep(ctx, req)


DEFECTS = {
    'gate-only-unresolved': lambda: setattr(ops, 'gate_action', gate_only_unresolved),
    'session-sweeps-unresolved': lambda: setattr(sessions, 'session_sweep', session_sweeps_unresolved),
}


# Installs the chosen defect, then serves the protocol exactly like journal.py.
def main():
    parser = argparse.ArgumentParser(description='broken python journal for ejc self-tests')
    parser.add_argument('--defect', choices=sorted(DEFECTS), required=True)
    args, rest = parser.parse_known_args()
    DEFECTS[args.defect]()
    return journal.main(rest)


if __name__ == '__main__':
    sys.exit(main())
