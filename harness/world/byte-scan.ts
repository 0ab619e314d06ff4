// Scans every byte a journal can have written: every file under its directory (recursively) and every file it lists.
import { existsSync, lstatSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { canaryId, withNonce } from '../../shared/secrets/canary-nonce.js';

export interface ScanResult {
  bytesScanned: number;
  /** Per file: which canaries (by canaryId, never by value) were found. */
  hits: Array<{ file: string; canarySha256: string; offset: number }>;
  files: Array<{ file: string; bytes: number }>;
}

/**
 * The files a scan of a journal must read: every regular file under its directory, whatever it
 * lists (a side file it never names is still on disk), plus each listed file outside the directory.
 * A listed file that does not exist is kept (it scans as zero bytes: a truncated WAL may be gone).
 */
export function journalFiles(dir: string, listed: readonly string[]): string[] {
  const found = existsSync(dir) ? walk(dir) : [];
  const extra = listed.filter((file) => !isInside(file, dir) || !found.includes(file));
  return [...found, ...extra.filter((f, i) => extra.indexOf(f) === i)];
}

/** Reads each file whole (a missing file is zero bytes) and finds every canary; names are relative to `base` when inside it. */
export function scanForCanaries(files: readonly string[], canaries: readonly string[], base?: string): ScanResult {
  const result: ScanResult = { bytesScanned: 0, hits: [], files: [] };
  for (const file of files) {
    const bytes = readIfFile(file);
    const name = base !== undefined && isInside(file, base) ? relative(base, file) : file;
    result.bytesScanned += bytes.length;
    result.files.push({ file: name, bytes: bytes.length });
    for (const canary of canaries) {
      const offset = bytes.indexOf(Buffer.from(canary, 'utf8'));
      if (offset >= 0) result.hits.push({ file: name, canarySha256: canaryId(canary), offset });
    }
  }
  return result;
}

/** Whether `file` lies under `dir` (both absolute). */
export function isInside(file: string, dir: string): boolean {
  const rel = relative(dir, file);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/** A fresh canary: recognisable in a hex dump, never written into a report by value; `nonce` makes it the trial's alone. */
export function makeCanary(random: () => number, nonce: string): string {
  return withNonce(`EJC-CANARY-${random().toString(36)}${random().toString(36)}`, nonce);
}

// Sorted, so a scan's order (and any evidence built from it) does not depend on the file system.
function walk(dir: string): string[] {
  const out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return out; // removed between its parent's listing and this one: nothing left to read
  }
  for (const name of names) {
    const path = join(dir, name);
    let st;
    try {
      st = lstatSync(path);
    } catch {
      continue; // removed between the listing and the stat: nothing left to read
    }
    // A symlinked directory is not descended into (it may loop); a symlinked file is read through.
    if (st.isDirectory()) out.push(...walk(path));
    else if (st.isFile() || (st.isSymbolicLink() && isFileTarget(path))) out.push(path);
  }
  return out;
}

function isFileTarget(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function readIfFile(file: string): Buffer {
  try {
    return statSync(file).isFile() ? readFileSync(file) : Buffer.alloc(0);
  } catch {
    return Buffer.alloc(0);
  }
}
