#!/usr/bin/env python3
"""py-jsonl-journal with its author's shortcut: settle writes without the lock, at the log end this process last
saw. "A settle only touches the row this process prepared; no other process decides anything about it, so there is
nothing to catch up on and nothing to lock." The end it last saw is stale as soon as another process on the same
directory appended a record: the settle record lands on top of it, and the other process's prepared row (or its
settle, its resolution) is gone from the log. Process-crash durability (spec 10) of one process's rows then depends on
what another process did.
"""
import importlib.util
import os
import sys

sys.dont_write_bytecode = True
_spec = importlib.util.spec_from_file_location('blind3_jsonl', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'py-jsonl-journal.py'))
jsonl = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(jsonl)
jsonl.BUGS.add('settle-at-cached-end')
jsonl.NAME = 'py-jsonl-settle-cached-end'

if __name__ == '__main__':
    jsonl.main()
