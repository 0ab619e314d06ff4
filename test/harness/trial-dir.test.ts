// Trial directories: created empty, removed by cleanup, and kept when the caller keeps them.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTrialDir } from '../../harness/trial-dir.js';

describe('createTrialDir', () => {
  it('creates a directory named like any temporary directory (nothing of ejc or a scenario), empty, and removes it with its contents', async () => {
    const trial = await createTrialDir();
    expect(basename(trial.path)).toMatch(/^tmp-\d+-[A-Za-z0-9]+$/);
    expect(readdirSync(trial.path)).toEqual([]);
    mkdirSync(join(trial.path, 'db'));
    writeFileSync(join(trial.path, 'db', 'journal.sqlite'), 'bytes');
    await trial.cleanup();
    expect(existsSync(trial.path)).toBe(false);
    await expect(trial.cleanup()).resolves.toBeUndefined();
  });

  it('removes nested directories and symbolic links without following them out of the trial', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'ejc-trial-dir-outside-'));
    try {
      writeFileSync(join(outside, 'keep.txt'), 'not the trial\'s');
      const trial = await createTrialDir();
      mkdirSync(join(trial.path, 'journal', 'deeper'), { recursive: true });
      for (const file of ['journal/effects.db', 'journal/effects.db-wal', 'journal/deeper/x', 'driver-1.stderr.log']) writeFileSync(join(trial.path, file), 'bytes');
      symlinkSync(outside, join(trial.path, 'journal', 'link-to-outside'));
      symlinkSync(join(outside, 'keep.txt'), join(trial.path, 'file-link'));
      await trial.cleanup();
      expect(existsSync(trial.path)).toBe(false);
      expect(readdirSync(outside)).toEqual(['keep.txt']);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('leaves a kept directory in place', async () => {
    const trial = await createTrialDir();
    trial.keep();
    try {
      expect(existsSync(trial.path)).toBe(true);
    } finally {
      rmSync(trial.path, { recursive: true, force: true });
    }
  });
});
