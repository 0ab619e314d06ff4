// The world watch: the kernel's record (fanotify) of every entry changed on the machine, so a world scan reads what changed.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeBinary } from '../../shared/native-build.js';
import { WORLD_WATCH_SOURCE } from './world-watch-source.js';

/** One entry the kernel saw change: its path as it resolves now, and whether it is a directory made or moved into place. */
export interface ChangedEntry {
  readonly path: string;
  readonly movedDir: boolean;
}

/**
 * Starts this process's watch, once, and returns the time from which every change is seen (now): a trial takes it as
 * its start. The helper marks the file systems of `mounts` and reports from then on; where there is no watch to be
 * had, the walk stands in for it.
 */
export function startWorldWatch(mounts: () => readonly string[]): number {
  if (current === undefined) current = process.env['EJC_WORLD_SCAN'] === 'walk' ? null : Watch.start(mounts());
  return Date.now();
}

/**
 * Every entry changed at or after `sinceMs`, read once every change made before this call has been reported; null
 * where there is no watch (not started, no fanotify, not root, no cc, `EJC_WORLD_SCAN=walk`), where it began after
 * `fromMs` (it may have missed what came before), where `mounts` holds one it did not mark, or where it may have
 * missed one (a queue overflow, a change it could not name, a watch that ended, a report that did not come back in
 * time): the caller then walks the file system, as it would without it.
 */
export function watchedChanges(sinceMs: number, fromMs: number, mounts: () => readonly string[]): ChangedEntry[] | null {
  if (!current || current.readyMs > fromMs) return null;
  // A file system mounted since the watch began is not marked: what was written there only a walk can see.
  if (mounts().some((m) => !current!.mounts.includes(m))) return null;
  const changes = current.since(sinceMs);
  // A watch that failed once stays off: the walk is what remains, for the rest of this process.
  if (changes === null) current = null;
  return changes;
}
let current: Watch | null | undefined;

// How long the helper may take to mark the file systems, and to report a change the harness just made.
const READY_MS = 10_000;
const BARRIER_MS = 20_000;
// Entries older than this are forgotten once the table is large: no trial's scan reaches that far back.
const FORGET_MS = 30 * 60_000;
const LARGE_TABLE = 200_000;

class Watch {
  private readonly seen = new Map<string, { ms: number; movedDir: boolean }>();
  private readonly chunk = Buffer.alloc(1 << 16);
  private pending = Buffer.alloc(0);
  private offset = 0;
  private overflowMs = -Infinity;

  /** When the helper had marked every file system: changes from then on are all reported. */
  readyMs = Infinity;

  private constructor(
    private readonly fd: number,
    private readonly child: ChildProcess,
    /** The mount points whose file systems it marked. */
    readonly mounts: readonly string[],
  ) {}

  static start(mounts: readonly string[]): Watch | null {
    const binary = nativeBinary('world-watch', WORLD_WATCH_SOURCE);
    if (binary === null || mounts.length === 0) return null;
    // The report goes to a file no one else can open: made, handed to the helper as its stdout, and unlinked at once,
    // so nothing is left behind however this process ends. Read at explicit offsets; the helper appends. Named like
    // any temporary file: a journal that looks for the harness finds no tell in TMPDIR. Whatever fails on the way (a
    // cleaner of TMPDIR removing the directory first) leaves no helper running: the walk stands in.
    let fd: number | null = null;
    let child: ChildProcess | null = null;
    const dir = join(tmpdir(), `tmp-${randomBytes(8).toString('hex')}`);
    try {
      mkdirSync(dir, { mode: 0o700 });
      fd = openSync(join(dir, 'events'), 'a+');
      child = spawn(binary, [...mounts], { stdio: ['ignore', fd, 'ignore'] });
      child.unref();
      child.on('error', () => undefined);
    } catch {
      child?.kill('SIGKILL');
      if (fd !== null) closeSync(fd);
      return null;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const spawned = child;
    process.once('exit', () => spawned.kill('SIGKILL'));
    const watch = new Watch(fd, spawned, mounts);
    const ready = watch.readUntil((line) => line === 'ready' || line.startsWith('error'), READY_MS);
    if (ready !== 'ready') {
      watch.stop();
      return null;
    }
    watch.readyMs = Date.now();
    return watch;
  }

  /** The changes since `sinceMs`, after a change made now has come back (so every earlier one has: the queue is ordered). */
  since(sinceMs: number): ChangedEntry[] | null {
    // The helper names entries by their real path.
    let sentinel: string;
    try {
      sentinel = join(realpathSync(tmpdir()), `.tmp-${randomBytes(8).toString('hex')}`);
      writeFileSync(sentinel, '');
      unlinkSync(sentinel);
    } catch {
      // No change can be made to come back (TMPDIR gone): the walk stands in.
      this.stop();
      return null;
    }
    const back = this.readUntil((line) => line.endsWith(` ${sentinel}`) || line.startsWith('error'), BARRIER_MS);
    if (back === null || back.startsWith('error') || this.overflowMs >= sinceMs) {
      this.stop();
      return null;
    }
    const out: ChangedEntry[] = [];
    for (const [path, e] of this.seen) if (e.ms >= sinceMs && path !== sentinel) out.push({ path, movedDir: e.movedDir });
    this.forget();
    return out;
  }

  // Reads the helper's report until a line satisfies `done` (returned), or null when the time is up or it ended.
  private readUntil(done: (line: string) => boolean, withinMs: number): string | null {
    const deadline = Date.now() + withinMs;
    const nap = new Int32Array(new SharedArrayBuffer(4));
    for (;;) {
      const n = readSync(this.fd, this.chunk, 0, this.chunk.length, this.offset);
      if (n > 0) {
        this.offset += n;
        const hit = this.absorb(this.chunk.subarray(0, n), done);
        if (hit !== null) return hit;
        continue;
      }
      if (this.child.exitCode !== null || this.child.signalCode !== null || Date.now() > deadline) return null;
      // The helper reports within a millisecond of a change; a short nap keeps this synchronous wait off the CPU.
      Atomics.wait(nap, 0, 0, 1);
    }
  }

  private absorb(bytes: Buffer, done: (line: string) => boolean): string | null {
    let data = this.pending.length > 0 ? Buffer.concat([this.pending, bytes]) : bytes;
    let hit: string | null = null;
    for (let nl = data.indexOf(10); nl >= 0; nl = data.indexOf(10)) {
      const line = data.subarray(0, nl).toString('utf8');
      data = data.subarray(nl + 1);
      this.record(line);
      if (hit === null && done(line)) hit = line;
    }
    this.pending = Buffer.from(data);
    return hit;
  }

  private record(line: string): void {
    const m = /^(\d+) (f|d|overflow|lost)(?: (.*))?$/s.exec(line);
    if (m === null) return;
    const ms = Number(m[1]);
    // A change it could not name is as good as missed: scans whose window holds it walk instead.
    if (m[2] === 'overflow' || m[2] === 'lost') {
      this.overflowMs = ms;
      return;
    }
    const path = m[3]!.replace(/\\(n|\\)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));
    const was = this.seen.get(path);
    // Re-inserted, so the table stays in the order of each entry's latest change.
    this.seen.delete(path);
    this.seen.set(path, { ms, movedDir: m[2] === 'd' || (was?.movedDir ?? false) });
  }

  private forget(): void {
    if (this.seen.size < LARGE_TABLE) return;
    const before = Date.now() - FORGET_MS;
    for (const [path, e] of this.seen) {
      if (e.ms >= before) break;
      this.seen.delete(path);
    }
  }

  private stop(): void {
    this.child.kill('SIGKILL');
    closeSync(this.fd);
  }
}
