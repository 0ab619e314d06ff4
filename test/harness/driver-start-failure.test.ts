// A driver that fails to start is the journal's failure, never a harness fault: the journal directory it was given was
// made before it started, so nothing the harness listed as made goes missing and the real error is what the trial shows.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import { harnessFault } from '../../harness/harness-fault.js';
import type { TrialDir } from '../../harness/trial-dir.js';
import { tinyTrial } from './helpers.js';

let dir: TrialDir;
let t: TrialContext;
let end: () => Promise<void>;
beforeEach(async () => {
  ({ t, dir, end } = await tinyTrial('start-failure#1'));
});
afterEach(() => end());

describe('a driver that dies before its hello', () => {
  it('fails the trial with its own error, and every directory the harness listed is there', async () => {
    const journalDir = join(dir.path, 'calibration');
    const thrown = await t.driver('calibration', { journalDir, launch: { kind: 'command', command: 'echo "no journal here" >&2; exit 3' } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(thrown).toBeInstanceOf(Error);
    expect(t.journalDirs).toEqual([journalDir]);
    expect(existsSync(journalDir)).toBe(true);
    expect(harnessFault([dir.path, ...t.journalDirs], thrown)).toBeNull();
  });
});
