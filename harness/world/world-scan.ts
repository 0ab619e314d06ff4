// The world scan: after a trial that planted canaries, every file modified since it started wherever a driver can write.
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { listDir } from './dir-listing.js';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { mountTable, type Mount } from '../../shared/mount-table.js';
import { canaryId } from '../../shared/secrets/canary-nonce.js';
import { canaryMatcher } from '../secrets/encoded-needles.js';
import type { TrialContext } from '../engine/trial-context.js';
import { scanHiddenBytes, type HiddenHit } from './hidden-bytes.js';
import { watchedChanges, type ChangedEntry } from './world-watch.js';
import type { Launch } from '../../reports/schema.js';

export interface WorldScan {
  /** The directories walked, resolved and deduplicated, in order (evidence: where a leak would have been seen). */
  readonly roots: string[];
  /** Files read (modified since the trial started, not the harness's own): evidence, never part of the outcome. */
  readonly files: number;
  readonly bytes: number;
  /** Each file holding a canary, by canaryId, sorted: the finding. */
  readonly hits: Array<{ file: string; canarySha256: string }>;
  /** Subtrees too large to read whole at every scan (see LARGE_SUBTREE), entered only where changed: the scan's boundary. */
  readonly gated: string[];
  /** Every entry changed since the trial began (files read, and the directories and links beside them), for the scan of their names, link targets and attributes. */
  readonly changed: string[];
  /** How the changed entries were found: the kernel's record of changes (world-watch.ts), or a walk of every directory. */
  readonly method: 'watch' | 'walk';
}

/**
 * Reads every regular file under `roots` modified at or after `sinceMs` by its mtime or its ctime (a file older than the
 * trial cannot hold its canaries: they are made for it; the ctime, which no process can set back, sees a file whose
 * mtime was), except the `exclude`d exact paths the harness itself wrote, and finds each canary.
 * Symlinks are not followed (a link cannot make a file be written twice), nor are other file systems' special trees.
 * Canaries are unique to their trial (harness/secrets/canary-nonce.ts), so reading more files can only find more of
 * this trial's leaks, never another run's: no file is skipped for belonging to another harness or an earlier run.
 * The entries to look at come from the world watch when it has seen everything since `watchFromMs` (the trial's start;
 * default `sinceMs`), else from a walk of the roots.
 */
export function scanWorld(options: { sinceMs: number; watchFromMs?: number; roots: readonly string[]; exclude: ReadonlySet<string>; excludeDirs?: ReadonlySet<string>; canaries: readonly string[] }): WorldScan {
  const roots = resolvedRoots(options.roots);
  const needles = options.canaries.map((c) => ({ sha: canaryId(c) }));
  // A copy re-encoded (base64, hex, UTF-16, percent) or a compressed file counts as the canary kept: see canaryMatcher.
  const match = canaryMatcher(options.canaries);
  const hits: WorldScan['hits'] = [];
  let files = 0;
  let bytes = 0;
  const changed: string[] = [];
  // One read of the mount table per scan: the pseudo file systems the walk skips and the ones a watch must have marked.
  const table = mountTable() ?? [];
  const excludeDirs = new Set([...(options.excludeDirs ?? []), ...pseudoMounts(table)]);
  const watched = watchedChanges(options.sinceMs, options.watchFromMs ?? options.sinceMs, () => watchMounts(table));
  const visit = watched === null ? walkRecent.bind(null, roots) : visitChanged.bind(null, watched, roots);
  const gated = visit(options.sinceMs, excludeDirs, (path) => changed.push(path), (path) => {
    if (options.exclude.has(path)) return;
    changed.push(path);
    let data: Buffer;
    try {
      data = readFileSync(path);
    } catch {
      return;
    }
    files += 1;
    bytes += data.length;
    for (const i of match(data, path)) hits.push({ file: path, canarySha256: needles[i]!.sha });
  });
  hits.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.canarySha256 < b.canarySha256 ? -1 : a.canarySha256 > b.canarySha256 ? 1 : 0));
  return { roots, files, bytes, hits, gated, changed, method: watched === null ? 'walk' : 'watch' };
}

/** Directories at most this deep under a root are always read, and so is every subtree below them smaller than LARGE_SUBTREE. */
export const FULL_DEPTH = 2;

/**
 * A subtree at FULL_DEPTH with at least this many entries (a toolchain, a package cache, node_modules) is entered only
 * where an entry was made since the trial began: reading such trees whole at every scan costs seconds. Everything else,
 * however deep, is read whole, so an append to an old file deep inside an old directory is seen there too.
 */
export const LARGE_SUBTREE = 500;

// Per harness process: the entry count of each FULL_DEPTH directory (counted once, up to LARGE_SUBTREE).
const subtreeSizes = new Map<string, number>();

/**
 * Calls `onFile` once for every regular file under `roots` modified at or after `sinceMs`. Symlinks are not followed;
 * a root inside another is walked once; `excludeDirs` are not entered. Returns the large subtrees that were gated.
 */
function walkRecent(roots: readonly string[], sinceMs: number, excludeDirs: ReadonlySet<string>, onOther: (path: string) => void, onFile: (path: string, st: Stats) => void): string[] {
  const seen = new Set<string>();
  const gated: string[] = [];
  const visit = (dir: string, depth: number, whole: boolean, dirStat: Stats | null): void => {
    let names: readonly string[];
    try {
      // Unchanged directories are not read again (dir-listing.ts); every entry in them still is looked at below.
      names = listDir(dir, dirStat);
    } catch {
      return; // removed meanwhile, or not ours to read
    }
    for (const name of names) {
      const path = join(dir, name);
      let st: Stats;
      try {
        st = lstatSync(path);
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        if (seen.has(path) || excludeDirs.has(path)) continue;
        if (changedSince(st, sinceMs)) onOther(path);
        let inside = whole || depth < FULL_DEPTH;
        if (!inside && depth === FULL_DEPTH) {
          inside = !isLarge(path);
          if (!inside) gated.push(path);
        }
        // In a large subtree a file created during the trial changes its directory's mtime; an append alone does not.
        if (inside || changedSince(st, sinceMs)) {
          seen.add(path);
          visit(path, depth + 1, inside && depth >= FULL_DEPTH, st);
        }
        continue;
      }
      if (st.isSymbolicLink() && changedSince(st, sinceMs)) onOther(path);
      if (!st.isFile() || !changedSince(st, sinceMs) || seen.has(path)) continue;
      seen.add(path);
      onFile(path, st);
    }
  };
  // A root inside another is walked first, from its own depth 0, and the outer root's walk does not enter it again.
  for (const root of [...roots].sort((a, b) => depthOf(b) - depthOf(a))) {
    if (seen.has(root)) continue;
    seen.add(root);
    visit(root, 0, false, null);
  }
  return gated.sort();
}

/**
 * `walkRecent` over the entries the kernel saw change: each one under a root (and outside `excludeDirs`) that changed at
 * or after `sinceMs` by its own times, as the walk would judge it, and the whole of a directory made or moved into place
 * (its files were written under another path). Nothing is gated: every changed file is read, wherever it is.
 */
function visitChanged(entries: readonly ChangedEntry[], roots: readonly string[], sinceMs: number, excludeDirs: ReadonlySet<string>, onOther: (path: string) => void, onFile: (path: string, st: Stats) => void): string[] {
  const under = (path: string, dir: string): boolean => dir === '/' || path === dir || path.startsWith(`${dir}/`);
  const excluded = [...excludeDirs];
  const seen = new Set<string>();
  const visit = (path: string, whole: boolean): void => {
    if (seen.has(path) || excluded.some((d) => under(path, d))) return;
    seen.add(path);
    let st: Stats;
    try {
      st = lstatSync(path);
    } catch {
      return; // gone since
    }
    if (st.isDirectory()) {
      if (changedSince(st, sinceMs)) onOther(path);
      if (!whole) return;
      let names: string[];
      try {
        names = readdirSync(path);
      } catch {
        return;
      }
      for (const name of names) visit(join(path, name), true);
      return;
    }
    if (!changedSince(st, sinceMs)) return;
    if (st.isSymbolicLink()) onOther(path);
    else if (st.isFile()) onFile(path, st);
  };
  for (const e of entries) if (roots.some((r) => under(e.path, r))) visit(e.path, e.movedDir);
  return [];
}

/** The file systems a watch marks: every mount the walk would enter (none of the pseudo file systems, nothing under one). */
export function watchMounts(mounts: readonly Mount[] = mountTable() ?? []): string[] {
  const pseudo = pseudoMounts(mounts);
  const inside = (point: string): boolean => pseudo.some((p) => point === p || point.startsWith(`${p}/`));
  return [...new Set(mounts.filter((m) => !PSEUDO_FS.has(m.type) && !inside(m.point)).map((m) => m.point))];
}

function depthOf(path: string): number {
  return path === '/' ? 0 : path.split('/').length - 1;
}

/** File systems that store nothing a process writes (the kernel's views and controls): never walked. */
const PSEUDO_FS = new Set(['proc', 'sysfs', 'cgroup', 'cgroup2', 'devpts', 'debugfs', 'tracefs', 'securityfs', 'pstore', 'bpf', 'configfs', 'fusectl', 'binfmt_misc', 'autofs', 'hugetlbfs', 'efivarfs', 'nsfs', 'rpc_pipefs']);

/** Mount points of the pseudo file systems, from this process's mount table (none when it cannot be read). */
export function pseudoMounts(table: readonly Mount[] = mountTable() ?? []): string[] {
  return table.filter((m) => PSEUDO_FS.has(m.type)).map((m) => m.point);
}

/**
 * Whether an entry changed at or after `sinceMs`: its mtime, or its ctime, which the kernel sets to the current time on
 * every write, rename and utimes(2) and no process can set back. A journal that restores a file's (or its directory's)
 * old mtime after appending to it has still changed its ctime.
 */
function changedSince(st: Stats, sinceMs: number): boolean {
  return st.mtimeMs >= sinceMs || st.ctimeMs >= sinceMs;
}

// Counted once per process (at most LARGE_SUBTREE entries read): a tree that is large stays large, one that grows is read whole.
function isLarge(dir: string): boolean {
  let size = subtreeSizes.get(dir);
  if (size === undefined) {
    size = countEntries(dir, LARGE_SUBTREE);
    subtreeSizes.set(dir, size);
  }
  return size >= LARGE_SUBTREE;
}

function countEntries(dir: string, cap: number): number {
  let n = 0;
  const stack = [dir];
  while (stack.length > 0 && n < cap) {
    let names: string[];
    const current = stack.pop()!;
    try {
      names = readdirSync(current);
    } catch {
      continue;
    }
    for (const name of names) {
      n += 1;
      try {
        if (lstatSync(join(current, name)).isDirectory()) stack.push(join(current, name));
      } catch {
        // gone meanwhile
      }
    }
  }
  return n;
}

/**
 * Where a driver can write without asking: the temporary directories, its home, its working directory, and its journal's
 * places; where a service keeps its state, logs, caches and spools (/var: /var/log, /var/lib, /var/cache, /var/spool;
 * /run, /srv, /usr/local, other users' homes, /mnt and /media); `extra`, the implementation's own directory (a log
 * "next to the code"); and last `/` itself, so /dev, /etc, /usr, /opt and every other writable place are read too (the
 * kernel's pseudo file systems excepted). Each named root is walked from its own depth; the rest of `/` lies under the
 * large-subtree gate, which a new entry or a changed ctime opens. This rests on the kernel's ctimes, not on a trace:
 * a journal cannot tell it is being watched this way, nor switch it off.
 */
export function worldRoots(extra: readonly string[]): string[] {
  return [tmpdir(), '/tmp', '/var/tmp', '/dev/shm', homedir(), process.cwd(), ...SERVICE_ROOTS, ...extra, '/'];
}

/** The service directories every world scan reads besides the temporary directories, home and the working directory. */
export const SERVICE_ROOTS = ['/var', '/run', '/srv', '/usr/local', '/home', '/mnt', '/media'] as const;

/**
 * The directories holding the implementation's own code: a module's, or each file a command names (its interpreter's
 * excepted). A journal that keeps a log beside itself writes there, wherever it is installed and whatever the cwd.
 */
export function implementationRoots(launch: Launch, cwd = process.cwd()): string[] {
  const files = launch.kind === 'module' ? [launch.module] : launch.command.split(/\s+/).slice(1).filter((w) => w !== '' && !w.startsWith('-'));
  const dirs: string[] = [];
  for (const file of files) {
    const path = resolve(cwd, file);
    try {
      if (!statSync(path).isFile()) continue;
    } catch {
      continue;
    }
    if (!dirs.includes(dirname(path))) dirs.push(dirname(path));
  }
  return dirs;
}

// Real paths (a root reached through a symlink is its target), existing directories only, first occurrence kept.
function resolvedRoots(roots: readonly string[]): string[] {
  const out: string[] = [];
  for (const root of roots) {
    let real: string;
    try {
      real = realpathSync(root);
      if (!lstatSync(real).isDirectory()) continue;
    } catch {
      continue;
    }
    if (!out.includes(real)) out.push(real);
  }
  return out;
}

/** The §11 clause the world scan checks, as an assertion name. */
export const WORLD_SCAN_CLAUSE = 'no planted argument secret in any file written during the trial wherever a driver can write outside its journal directory (temporary directories, home, working directory, service state and log directories, the implementation\'s own directory, the rest of the file system), nor in a name, link target or extended attribute of an entry the trial changed or of its journal directory, nor in a System V IPC object made during the trial (effect-journal §11)';

/**
 * The journal directories themselves are judged by the scenario's own byte scans (or the model), which know what a
 * journal may keep there (a retained result may quote its arguments) and when (before a WAL checkpoint).
 * After a trial that planted argument secrets: scans the world for them (none planted: nothing to do, null). A hit is
 * conclusive (canaries are made for this trial, so a file holding one was written by its drivers). The roots and how
 * much was read are evidence (`observed`), outside the outcome digest; the hits, with machine paths replaced, are in it.
 */
export function checkWorld(t: TrialContext): WorldScan | null {
  const world = scanTrialWorld(t);
  if (world === null) return null;
  t.assertions.push({
    name: WORLD_SCAN_CLAUSE,
    expected: [],
    actual: world.found,
    passed: world.found.length === 0,
    ...(world.found.length === 0 ? {} : { conclusive: true as const }),
    // How many files and bytes were read depends on everyone's files in /tmp: kept out of the report, so it repeats.
    observed: { method: world.scan.method, roots: world.scan.roots, gated: world.scan.gated.map((g) => placeOf(g, t.dir)) },
  });
  return world.scan;
}

/** The world scan of a trial and its findings (file, masked canary), hits counted in its tally; null when it planted no secret. */
export function scanTrialWorld(t: TrialContext): { scan: WorldScan; found: string[] } | null {
  if (t.planted.length === 0) return null;
  // This trial's own harness files and journal directories only: no other trial planted these canaries.
  const exclude = new Set(t.harnessFiles.map(real));
  const excludeDirs = new Set(t.journalDirs.map(real));
  const scan = scanWorld({ sinceMs: worldSince(t), watchFromMs: t.startedAt, roots: worldRoots(implementationRoots(t.launch)), exclude, excludeDirs, canaries: t.planted });
  const found = scan.hits.map((h) => `${placeOf(h.file, t.dir)}: [masked canary:${h.canarySha256.slice(0, 12)}]`);
  // Bytes kept beside the files: names, link targets and attributes (in the journal directories too), and IPC objects.
  const hidden = scanHiddenBytes({ trees: t.journalDirs.map(real), changed: scan.changed, sinceMs: worldSince(t), canaries: t.planted });
  found.push(...hiddenFindings(hidden.hits, t.dir));
  t.tally.canaryHits += hidden.hits.length;
  // How much was read depends on the machine (everyone's files in /tmp): evidence in `observed`, never a count.
  t.tally.canaryHits += scan.hits.length;
  return { scan, found };
}

// Entry names carry pids and hashes: a finding names the kind of place and the directory holding the entry, once.
function hiddenFindings(hits: readonly HiddenHit[], trialDir: string): string[] {
  const out = hits.map((h) => `${h.kind}${h.path === null ? '' : ` of an entry in ${placeOf(dirname(h.path), trialDir)}/`}: [masked canary:${h.canarySha256.slice(0, 12)}]`);
  return [...new Set(out)].sort();
}

// File systems stamp mtimes at their own granularity: a second of slack can only add files to read, never hide one.
const MTIME_SLACK_MS = 1000;

/** The mtime from which a trial's world scan reads files (its start, less the slack). */
export function worldSince(t: { readonly startedAt: number }): number {
  return t.startedAt - MTIME_SLACK_MS;
}

// The trial directory and the temporary directory differ per run and machine: the finding names them by role.
function placeOf(file: string, trialDir: string): string {
  const trial = real(trialDir);
  if (file === trial || file.startsWith(`${trial}/`)) return `<trial>${file.slice(trial.length)}`;
  const tmp = real(tmpdir());
  if (file.startsWith(`${tmp}/`)) return `<tmpdir>${file.slice(tmp.length)}`;
  const home = real(homedir());
  if (home !== '/' && file.startsWith(`${home}/`)) return `~${file.slice(home.length)}`;
  return file;
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
