// The environment a run happened in: runtime, storage library, OS and kernel, trial file system, strace, libfaketime.
import { execFileSync } from 'node:child_process';
import { realpathSync, statfsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform, release, tmpdir, version } from 'node:os';
import type { Environment } from '../reports/binding-schema.js';
import { confinement } from '../shared/confinement.js';
import { mountTable, type Mount } from '../shared/mount-table.js';
import { faketimeLibrary } from './explore/schedule.js';
import { straceAvailable } from './engine/syscall-sweep.js';
import { sqliteReader } from './secrets/sqlite-reader.js';

/** Describes this machine for a report; each probe that cannot answer says so instead of failing the run. */
export function describeEnvironment(shard: number | null, trialDir: string = tmpdir()): Environment {
  let known = memo.get(trialDir);
  if (known === undefined) memo.set(trialDir, (known = probe(trialDir)));
  return { shard, ...known };
}

const memo = new Map<string, Omit<Environment, 'shard'>>();

function probe(trialDir: string): Omit<Environment, 'shard'> {
  const sqlite = sqliteVersions();
  return {
    node: process.version,
    betterSqlite3: sqlite.betterSqlite3,
    sqlite: sqlite.sqlite,
    os: { platform: platform(), arch: arch(), release: release(), version: version() },
    trialFs: fileSystemType(trialDir),
    // The probe the scenarios' needs use (it traces a process): a strace that runs but may not trace is no strace here.
    strace: straceAvailable() ? straceVersion() : null,
    faketime: faketimeLibrary(),
    confinement: confinement(),
  };
}

function sqliteVersions(): { betterSqlite3: string | null; sqlite: string | null } {
  // The same loader the secret scans use, so the record and the `sqlite` dimension never disagree.
  const Database = sqliteReader();
  if (Database === null) return { betterSqlite3: packageVersion('better-sqlite3'), sqlite: null };
  const db = new Database(':memory:');
  try {
    return { betterSqlite3: packageVersion('better-sqlite3'), sqlite: String(db.prepare('select sqlite_version()').pluck().get()) };
  } finally {
    db.close();
  }
}

function packageVersion(name: string): string | null {
  try {
    return (createRequire(import.meta.url)(`${name}/package.json`) as { version: string }).version;
  } catch {
    return null;
  }
}

// The mount table's type for the longest mount point above the directory; statfs's magic number elsewhere.
function fileSystemType(dir: string): string {
  let path = dir;
  try {
    path = realpathSync(dir);
  } catch {
    // the directory's own name will do
  }
  let best: Mount | null = null;
  for (const mount of mountTable() ?? []) {
    const inside = path === mount.point || path.startsWith(mount.point.endsWith('/') ? mount.point : `${mount.point}/`);
    if (inside && (best === null || mount.point.length >= best.point.length)) best = mount;
  }
  if (best !== null) return best.type;
  // not Linux: fall back to statfs
  try {
    return `statfs 0x${statfsSync(path).type.toString(16)}`;
  } catch {
    return 'unknown';
  }
}

function straceVersion(): string | null {
  try {
    const out = execFileSync('strace', ['-V'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] });
    return /version\s+(\S+)/.exec(out)?.[1] ?? out.split('\n')[0]!.trim();
  } catch {
    return null;
  }
}
