// A fresh temporary directory per trial, removed by `cleanup()` or by the harness's signal cleanup.
import { mkdtempSync } from 'node:fs';
import { mkdir, readdir, rm, rmdir, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerTempDir, unregisterTempDir } from './driver/registry.js';

export interface TrialDir {
  readonly path: string;
  /** Removes the directory and everything in it. A caller that wants to keep it simply never calls this. */
  cleanup(): Promise<void>;
  /** Exempts the directory from signal cleanup too (for `--keep`); cleanup() still removes it if called. */
  keep(): void;
}

/**
 * Creates an empty temp dir (under `parent`, else TMPDIR), registered so Ctrl-C removes it too. Its name is the common
 * `tmp-<pid>-<random>`, like any program's temporary directory: naming it after ejc or the scenario would tell a
 * journal which trial it is in.
 */
export async function createTrialDir(parent?: string): Promise<TrialDir> {
  if (parent !== undefined) await mkdir(parent, { recursive: true });
  const path = createRegisteredTempDir(parent ?? tmpdir(), `tmp-${process.pid}-`);
  let cleaned = false;
  return {
    path,
    async cleanup(): Promise<void> {
      if (cleaned) return;
      cleaned = true;
      // Registered until it is gone: a signal during the removal (it takes a few event-loop turns) still finishes it.
      await removeTree(path);
      unregisterTempDir(path);
    },
    keep(): void {
      unregisterTempDir(path);
    },
  };
}

/**
 * mkdtemp and registration in one synchronous step: a signal handler runs only between event-loop turns, so there is
 * no moment at which the directory exists and the signal cleanup does not know it. (An asynchronous mkdtemp left one:
 * a SIGHUP handled while a pool thread was creating the directory exited without it, and the directory stayed.)
 */
export function createRegisteredTempDir(parent: string, prefix: string): string {
  const path = mkdtempSync(join(parent, prefix));
  registerTempDir(path);
  return path;
}

/**
 * Removes a trial directory: every directory's entries unlinked side by side (a symbolic link is removed, never
 * followed), then the directory. node's recursive rm goes one entry after another, and every trial's path waits on
 * it. Anything that fails (an entry that appeared meanwhile, a permission) falls back to that rm, which removes the rest.
 */
async function removeTree(path: string): Promise<void> {
  try {
    await removeEntries(path);
  } catch {
    await rm(path, { recursive: true, force: true });
  }
}

async function removeEntries(path: string): Promise<void> {
  const entries = await readdir(path, { withFileTypes: true });
  // Every removal settles before a failure is passed on: the fallback rm never races one still under way.
  const results = await Promise.allSettled(entries.map((e) => (e.isDirectory() ? removeEntries(join(path, e.name)) : unlink(join(path, e.name)))));
  const failed = results.find((r) => r.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
  await rmdir(path);
}
