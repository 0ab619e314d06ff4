#!/usr/bin/env python3
"""py-jsonl-journal with its author's shortcut: the terminal sweep erases the results it deletes right after its
delete record, and nothing erases them later: "the sweep erases what it deletes". A sweep killed between its delete
record and the erasure leaves the results' bytes in the log, and every later open and checkpoint (which answers
complete) leaves them too: §11's freed bytes survive a successful checkpoint.
"""
import importlib.util
import os
import sys

sys.dont_write_bytecode = True
_spec = importlib.util.spec_from_file_location('blind3_jsonl', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'py-jsonl-journal.py'))
jsonl = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(jsonl)
jsonl.BUGS.add('erase-once')
jsonl.NAME = 'py-jsonl-erase-once'

if __name__ == '__main__':
    jsonl.main()
