// The storage evidence the harness reads itself: real SQLite files in WAL and rollback mode, files a journal did not name.
import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dir } from 'tmp-promise';
import { describe, expect, it } from 'vitest';
import { showsSqliteWal, storageEvidence, unlistedFiles } from '../../harness/claims/storage-evidence.js';

async function withDir(body: (path: string) => void): Promise<void> {
  const d = await dir({ unsafeCleanup: true });
  try {
    body(d.path);
  } finally {
    await d.cleanup();
  }
}

function sqlite(path: string, mode: 'WAL' | 'DELETE', close: boolean): Database.Database {
  const db = new Database(path);
  db.pragma(`journal_mode = ${mode}`);
  db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
  if (close) db.close();
  return db;
}

describe('storage evidence', () => {
  it('shows WAL mode from the header of a closed database (no -wal file left) and from an open one', () =>
    withDir((d) => {
      sqlite(join(d, 'closed.db'), 'WAL', true);
      const closed = storageEvidence(d);
      expect(closed.sqlite.map((f) => [f.formats, f.walFile, f.wal])).toEqual([[[2, 2], false, true]]);
      const open = sqlite(join(d, 'open.db'), 'WAL', false);
      try {
        const both = storageEvidence(d);
        expect(both.sqlite.find((f) => f.path.endsWith('open.db'))?.walFile).toBe(true);
        expect(showsSqliteWal(both)).toBe(true);
      } finally {
        open.close();
      }
    }));

  it('shows no WAL for a rollback-journal database or a file that is not SQLite', () =>
    withDir((d) => {
      sqlite(join(d, 'rollback.db'), 'DELETE', true);
      writeFileSync(join(d, 'log.jsonl'), '{"t":"prepare"}\n');
      const evidence = storageEvidence(d);
      expect(evidence.sqlite.map((f) => f.formats)).toEqual([[1, 1]]);
      expect(showsSqliteWal(evidence)).toBe(false);
    }));

  it('names files the journal keeps but did not list, SQLite -shm and -journal of a listed file aside', () =>
    withDir((d) => {
      mkdirSync(join(d, 'audit'));
      for (const f of ['effects.db', 'effects.db-wal', 'effects.db-shm', 'audit/results.log', 'other.db-shm']) writeFileSync(join(d, f), 'x');
      const listed = [join(d, 'effects.db'), join(d, 'effects.db-wal')];
      expect(unlistedFiles(d, storageEvidence(d), listed)).toEqual(['audit/results.log', 'other.db-shm']);
      expect(unlistedFiles(d, storageEvidence(d), [...listed, join(d, 'audit/results.log'), join(d, 'other.db-shm')])).toEqual([]);
    }));
});
