// Bytes a journal can keep outside every regular file's contents: link targets, entry names, extended attributes, System V IPC objects.
import { spawnSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { canaryId } from '../../shared/secrets/canary-nonce.js';
import { canaryMatcher } from '../secrets/encoded-needles.js';
import { readHidden } from './hidden-read.js';

/** Where a canary was found: the entry (or IPC object) and which kind of place held it. */
export interface HiddenHit {
  /** The entry's path, or null for an IPC object (which has no path). */
  readonly path: string | null;
  readonly kind: 'link target' | 'entry name' | 'extended attribute' | 'System V shared memory' | 'System V message queue';
  readonly canarySha256: string;
}

export interface HiddenScan {
  readonly hits: HiddenHit[];
  /** Entries whose names, link targets and attributes were read, and the IPC objects made since the trial began. */
  readonly entries: number;
  readonly ipcObjects: number;
  /** What could not be read (no python3, or a queue the kernel would not copy): the scan's boundary, as evidence. */
  readonly unread: string[];
}

/**
 * Reads what survives a process without being a file's bytes: the names and link targets of every entry under `trees`
 * (the journal directories, whole) and of each `changed` entry (what the world scan found changed since the trial began:
 * a new link, a directory whose attributes were set), their extended attributes, and every System V shared memory
 * segment and message queue created or changed since `sinceMs`. Canaries are the trial's alone, so any hit is this
 * trial's leak; a segment or queue holding one is removed once read, so the trial leaves none of its secrets behind.
 */
export function scanHiddenBytes(options: { trees: readonly string[]; changed: readonly string[]; sinceMs: number; canaries: readonly string[] }): HiddenScan {
  const match = canaryMatcher(options.canaries);
  const shas = options.canaries.map(canaryId);
  const hits: HiddenHit[] = [];
  const found = (path: string | null, kind: HiddenHit['kind'], bytes: Buffer): void => {
    for (const i of match(bytes, '')) hits.push({ path, kind, canarySha256: shas[i]! });
  };
  const entries = [...new Set([...options.trees.flatMap((t) => walkAll(t)), ...options.changed])];
  for (const path of entries) {
    found(path, 'entry name', Buffer.from(basename(path), 'utf8'));
    try {
      if (lstatSync(path).isSymbolicLink()) found(path, 'link target', readlinkSync(path, { encoding: 'buffer' }));
    } catch {
      // Gone meanwhile: nothing left to read.
    }
  }
  const ipc = recentIpc(options.sinceMs);
  const read = readHidden(entries, ipc);
  for (const [path, , value] of read.xattrs) found(path, 'extended attribute', value);
  const remove: string[] = [];
  for (const [id, value] of read.shm) {
    const before = hits.length;
    found(null, 'System V shared memory', value);
    if (hits.length > before) remove.push('-m', String(id));
  }
  for (const [id, value] of read.msg) {
    const before = hits.length;
    found(null, 'System V message queue', value);
    if (hits.length > before) remove.push('-q', String(id));
  }
  if (remove.length > 0) spawnSync('ipcrm', remove, { stdio: 'ignore', timeout: 10_000 });
  return { hits, entries: entries.length, ipcObjects: ipc.shm.length + ipc.msg.length, unread: read.unread };
}

// Every entry under `dir`, `dir` included; links are listed, never followed.
function walkAll(dir: string): string[] {
  const out = [dir];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    const path = join(dir, name);
    try {
      if (lstatSync(path).isDirectory()) out.push(...walkAll(path));
      else out.push(path);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * The ids of System V segments and queues whose ctime (set at creation and at every IPC_SET) is at or after `sinceMs`,
 * less a second (the kernel keeps seconds), from /proc/sysvipc: objects an older process made cannot hold this trial's
 * canaries. Semaphore sets hold small integers only and are not read.
 */
function recentIpc(sinceMs: number): { shm: Array<[number, number]>; msg: number[] } {
  const since = Math.floor(sinceMs / 1000) - 1;
  const rows = (file: string, columns: readonly string[]): number[][] => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return [];
    }
    const [head, ...lines] = text.trim().split('\n');
    const cols = (head ?? '').trim().split(/\s+/);
    const ctime = cols.indexOf('ctime');
    return lines.map((r) => r.trim().split(/\s+/)).filter((r) => Number(r[ctime]) >= since).map((r) => columns.map((c) => Number(r[cols.indexOf(c)])));
  };
  return { shm: rows('/proc/sysvipc/shm', ['shmid', 'size']).map(([id, size]) => [id!, size!]), msg: rows('/proc/sysvipc/msg', ['msqid']).map(([id]) => id!) };
}
