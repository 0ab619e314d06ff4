// A fresh temporary directory per trial, removed by `cleanup()` or by the harness's signal cleanup.
import { dir } from 'tmp-promise';
import { registerTempDir, unregisterTempDir } from './driver/registry.js';

export interface TrialDir {
  readonly path: string;
  /** Removes the directory and everything in it. A caller that wants to keep it simply never calls this. */
  cleanup(): Promise<void>;
  /** Exempts the directory from signal cleanup too (for `--keep`); cleanup() still removes it if called. */
  keep(): void;
}

/** Creates an empty temp dir named after `prefix`, registered so Ctrl-C removes it too. */
export async function createTrialDir(prefix: string): Promise<TrialDir> {
  const created = await dir({ prefix: sanitize(prefix), unsafeCleanup: true });
  registerTempDir(created.path);
  let cleaned = false;
  return {
    path: created.path,
    async cleanup(): Promise<void> {
      if (cleaned) return;
      cleaned = true;
      unregisterTempDir(created.path);
      await created.cleanup();
    },
    keep(): void {
      unregisterTempDir(created.path);
    },
  };
}

function sanitize(prefix: string): string {
  // Scenario ids may carry slashes or colons; a prefix must stay one path segment.
  const safe = prefix.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60);
  return safe.endsWith('-') ? safe : `${safe}-`;
}
