// A directory's entry names, read again only when the directory may have changed since they were read (world scans).
import { readdirSync, type Stats } from 'node:fs';

/**
 * A directory changed this recently is listed afresh at every scan: its timestamps are kept at the kernel's coarse clock
 * (a tick of milliseconds), so an entry made in the same tick as the change before it leaves them as they were.
 */
export const SETTLED_MS = 2000;

interface Listing {
  readonly dev: number;
  readonly ino: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly names: readonly string[];
}

// Per harness process: the world scan walks the same directories after every trial, and most never change.
const listings = new Map<string, Listing>();

/**
 * The names in `dir`, whose lstat is `st` (taken before this call), as readdir(3) gives them; throws as readdirSync does.
 * A listing read earlier is given again when the directory is the same one (device and inode) with the same mtime and
 * ctime, and both were at least SETTLED_MS old when it was read. Creating, removing or renaming an entry sets both to
 * the current time, and a process may set the mtime back (utimes) but never the ctime, so an unchanged pair says the
 * names are the same. The files' own bytes are no part of this: each entry is still looked at by the caller.
 */
export function listDir(dir: string, st: Stats | null, settledMs = SETTLED_MS): readonly string[] {
  const cached = st === null ? undefined : listings.get(dir);
  if (st !== null && cached !== undefined && cached.dev === st.dev && cached.ino === st.ino && cached.mtimeMs === st.mtimeMs && cached.ctimeMs === st.ctimeMs) return cached.names;
  const before = Date.now();
  const names = readdirSync(dir);
  if (st !== null && st.mtimeMs < before - settledMs && st.ctimeMs < before - settledMs) {
    listings.set(dir, { dev: st.dev, ino: st.ino, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, names });
  } else {
    listings.delete(dir);
  }
  return names;
}
