// The harness's own environment (TMPDIR, its files): when it fails, that is a harness error (exit 3), never a verdict about the journal.
import { statfs } from 'node:fs/promises';
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EjcError } from '../shared/errors.js';
import { confinement } from '../shared/confinement.js';

/** Room the trial directories need before a run starts: journals, target ledgers, traces and logs of a few trials at once. */
export const MIN_FREE_BEFORE_RUN = 16 * 1024 * 1024;
/** Below this, a trial that did not pass is blamed on the full file system, not on the journal. */
export const MIN_FREE_AFTER_TRIAL = 1024 * 1024;

/** Errno codes that mean the machine, not the journal, failed the harness's own I/O. */
const ENVIRONMENT_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EMFILE', 'ENFILE', 'ENOMEM', 'EACCES', 'EPERM']);

/** Checks that TMPDIR can hold trial directories before the first trial; a problem is an `environment` EjcError. */
export async function checkTrialRoot(root: string = tmpdir()): Promise<void> {
  // A bad EJC_CONFINEMENT, or a required namespace this machine cannot make, stops the run before any trial.
  confinement();
  // Made and removed synchronously: a signal handler cannot run in between, so an interrupt never leaves the probe
  // behind (an asynchronous mkdtemp still running in a pool thread when SIGHUP came did).
  try {
    rmSync(mkdtempSync(join(root, 'tmp-')), { recursive: true, force: true });
  } catch (error) {
    throw new EjcError('environment', `cannot create trial directories in ${root} (TMPDIR): ${(error as Error).message}; point TMPDIR at a writable directory`, { cause: error });
  }
  const free = freeBytes(await statfs(root));
  if (free < MIN_FREE_BEFORE_RUN) {
    throw new EjcError('environment', `${root} (TMPDIR) has ${formatBytes(free)} free; the trials need at least ${formatBytes(MIN_FREE_BEFORE_RUN)}: free space or point TMPDIR at a larger file system`);
  }
}

/**
 * For a trial that did not pass, before its directory is removed: when the file system it ran on is
 * full, the journal's failure may be the disk's, so the run must stop as a harness error (returned).
 */
export function fullFileSystem(dir: string): EjcError | null {
  let stats;
  try {
    stats = statfsSync(dir);
  } catch {
    return null; // nothing to learn; the verdict stands on its evidence
  }
  const free = freeBytes(stats);
  if (free < MIN_FREE_AFTER_TRIAL || (stats.files > 0 && stats.ffree === 0)) {
    return new EjcError('environment', `the file system of the trial directories (TMPDIR=${tmpdir()}) is full (${formatBytes(free)}, ${stats.ffree} inode(s) free): the trial's result would be about the disk, not the journal; free space or point TMPDIR at a larger file system`);
  }
  return null;
}

/** The EjcError for a failure of the harness's own I/O (full disk, read-only, out of descriptors), or null for anything else. */
export function environmentError(error: unknown): EjcError | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== 'string' || !ENVIRONMENT_CODES.has(code)) return null;
  return new EjcError('environment', `the harness's own I/O failed: ${(error as Error).message}; this says nothing about the journal (check TMPDIR, free space and limits)`, { cause: error });
}

function freeBytes(stats: { bavail: number | bigint; bsize: number | bigint }): number {
  return Number(stats.bavail) * Number(stats.bsize);
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MiB` : `${Math.round(n / 1024)} KiB`;
}
