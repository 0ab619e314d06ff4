// Trial directories: created empty, removed by cleanup, and kept when the caller keeps them.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTrialDir } from '../../harness/trial-dir.js';
import { OWNER_FILE } from '../../harness/world/trial-owner.js';

describe('createTrialDir', () => {
  it('creates a directory named after a sanitized prefix, holding only its owner marker, and removes it with its contents', async () => {
    const trial = await createTrialDir('scenario/04:after-settle');
    expect(basename(trial.path).startsWith('scenario-04-after-settle-')).toBe(true);
    // The marker names this harness process, so a concurrent harness's world scan leaves the trial to it.
    expect(readdirSync(trial.path)).toEqual([OWNER_FILE]);
    mkdirSync(join(trial.path, 'db'));
    writeFileSync(join(trial.path, 'db', 'journal.sqlite'), 'bytes');
    await trial.cleanup();
    expect(existsSync(trial.path)).toBe(false);
    await expect(trial.cleanup()).resolves.toBeUndefined();
  });

  it('leaves a kept directory in place', async () => {
    const trial = await createTrialDir('kept');
    trial.keep();
    try {
      expect(existsSync(trial.path)).toBe(true);
    } finally {
      rmSync(trial.path, { recursive: true, force: true });
    }
  });
});
