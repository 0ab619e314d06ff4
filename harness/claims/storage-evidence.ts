// What the journal's directory shows about its storage, read by the harness itself: the files there and SQLite's own headers.
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One SQLite database among the journal's files, as its header and its sidecar files show it. */
export interface SqliteFile {
  readonly path: string;
  /** Header bytes 18 and 19 (write and read format): 2 means WAL mode, 1 a rollback journal. */
  readonly formats: readonly [number, number];
  readonly walFile: boolean;
  readonly wal: boolean;
}

/** Storage evidence the journal does not control: every regular file under `dir`, and each SQLite database among them. */
export interface StorageEvidence {
  readonly files: readonly string[];
  readonly sqlite: readonly SqliteFile[];
}

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
// SQLite's own transient companions of a database: the shared-memory index holds no rows, a rollback journal lives only inside a write.
const SIDECARS = ['-shm', '-journal'];

/** Reads the directory (recursively) and the first 100 bytes of each file. */
export function storageEvidence(dir: string): StorageEvidence {
  const files = walk(dir).sort();
  const sqlite = files.flatMap((path): SqliteFile[] => {
    const head = readHead(path, 100);
    if (head.length < 20 || !head.subarray(0, 16).equals(SQLITE_MAGIC)) return [];
    const formats = [head[18]!, head[19]!] as const;
    const walFile = existsSync(`${path}-wal`);
    return [{ path, formats, walFile, wal: formats[0] === 2 || formats[1] === 2 || walFile }];
  });
  return { files, sqlite };
}

/** Whether the evidence shows rows kept by SQLite in WAL mode. */
export function showsSqliteWal(evidence: StorageEvidence): boolean {
  return evidence.sqlite.some((f) => f.wal);
}

/** Files under `dir` the journal keeps but did not name: neither listed nor a SQLite sidecar of a listed file. */
export function unlistedFiles(dir: string, evidence: StorageEvidence, listed: readonly string[]): string[] {
  const named = new Set(listed);
  const sidecar = (path: string) => SIDECARS.some((s) => path.endsWith(s) && named.has(path.slice(0, -s.length)));
  return evidence.files.filter((f) => !named.has(f) && !sidecar(f)).map((f) => relative(dir, f));
}

/** One line per SQLite database: what its header and sidecars say. */
export function describeSqlite(dir: string, evidence: StorageEvidence): string[] {
  return evidence.sqlite.map((f) => `${relative(dir, f.path)}: SQLite header formats ${f.formats.join('/')}${f.walFile ? ', a -wal file beside it' : ''} (${f.wal ? 'WAL mode' : 'rollback journal'})`);
}

function walk(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return walk(path);
    return e.isFile() && statSync(path, { throwIfNoEntry: false }) !== undefined ? [path] : [];
  });
}

function readHead(path: string, n: number): Buffer {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(n);
    const read = readSync(fd, buf, 0, n, 0);
    return buf.subarray(0, read);
  } catch {
    // A file removed between the listing and the read (a rollback journal at commit) has no header to show.
    return Buffer.alloc(0);
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
