#!/usr/bin/env python3
"""The Python journal, with the author's reading of compaction: a compacted turn is history, and only finished
exchanges are compacted, so its calls count as completed whatever status the transcript carries.

A call of an aborted or errored exchange that was compacted afterwards is then silent on resume instead of disclosed
as possibly incomplete (spec 8: a call of an exchange that did not complete is disclosed, compacted turns included).
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', 'examples', 'python-journal')))

import journal  # noqa: E402
import sessions  # noqa: E402


def index_calls(transcript):
    calls = {}
    for turn in transcript:
        status = 'completed' if turn.get('compacted') else turn['status']
        for call in turn['calls']:
            calls.setdefault(call['callId'], []).append((call['toolName'], status))
    return calls


sessions._index_calls = index_calls

if __name__ == '__main__':
    sys.exit(journal.main(sys.argv[1:]))
