// A driver that fails to start is the journal's failure, never a harness fault: the journal directory it was given was
// made before it started, so nothing the harness listed as made goes missing and the real error is what the trial shows.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TrialContext } from '../../harness/engine/trial-context.js';
import { harnessFault } from '../../harness/harness-fault.js';
import { createTrialDir, type TrialDir } from '../../harness/trial-dir.js';
import { resolveForSpawn } from '../../runner/run-conformance.js';
import { tinyLaunch } from './helpers.js';

let dir: TrialDir;
let t: TrialContext;
beforeEach(async () => {
  dir = await createTrialDir();
  const capabilities = { crashPoints: [], faults: [], tierMode: 'conservative' as const, sessions: false, seeding: false, outerTransactionProbe: false };
  t = new TrialContext({ id: 'start-failure#1', seed: 1, dir: dir.path, launch: resolveForSpawn(tinyLaunch()), timeoutMs: 60_000, capabilities });
});
afterEach(async () => {
  await t.killAll();
  await dir.cleanup();
});

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
