#!/usr/bin/env python3
"""The Python journal clearing legacy session results by rebuilding its table at open, in one executescript.

The author's reason: an UPDATE leaves each legacy result's old cell to secure_delete and its overflow pages to the
freelist, and spec 11 warns that pages freed before the upgrade are not retroactively zeroed; copying the rows into a
fresh table without the results and dropping the old one frees every page that ever held one. The script is written
as one unit, but Python's executescript runs it statement by statement in autocommit (it opens no transaction of its
own): a restart killed after the DROP and before the RENAME commits leaves the journal's rows in a table the next open
does not read, so the resumed run finds no record of its effects (spec 10: a process crash loses nothing acknowledged).
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', 'examples', 'python-journal')))

import journal  # noqa: E402
import sessions  # noqa: E402
import store  # noqa: E402

REBUILD = store.DDL.replace('run_effects', 'run_effects_clean') + """
INSERT INTO run_effects_clean SELECT * FROM run_effects;
UPDATE run_effects_clean SET result_json = NULL WHERE scope_kind = 'session';
DROP TABLE run_effects;
ALTER TABLE run_effects_clean RENAME TO run_effects;
"""


def clear_legacy_session_results(conn):
    legacy = conn.execute("SELECT count(*) FROM run_effects WHERE scope_kind = 'session' AND result_json IS NOT NULL").fetchone()[0]
    if legacy > 0:
        conn.executescript(REBUILD)
    return store.checkpoint_truncate(conn)


sessions.clear_legacy_session_results = clear_legacy_session_results

if __name__ == '__main__':
    sys.exit(journal.main(sys.argv[1:]))
