// Trial directories: created empty, removed by cleanup, and kept when the caller keeps them.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTrialDir } from '../../harness/trial-dir.js';

describe('createTrialDir', () => {
  it('creates a directory named after a sanitized prefix, empty, and removes it with its contents', async () => {
    const trial = await createTrialDir('scenario/04:after-settle');
    expect(basename(trial.path).startsWith('scenario-04-after-settle-')).toBe(true);
    expect(readdirSync(trial.path)).toEqual([]);
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
