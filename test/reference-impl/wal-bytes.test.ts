import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReferenceJournal } from '../../reference-impl/index.js';
import { makeFixture, proceedId, RESULT, runPrepare, type Fixture } from './helpers.js';

let fx: Fixture;
beforeEach(async () => {
  fx = await makeFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

// Which of [main file, -wal file] currently contain the canary bytes (a missing file holds nothing).
function scan(files: readonly string[], canary: string): boolean[] {
  const needle = Buffer.from(canary, 'utf8');
  return files.map((file) => existsSync(file) && readFileSync(file).indexOf(needle) >= 0);
}

function seedLegacySessionResult(j: ReferenceJournal, sessionId: string, canary: string): void {
  j.seed({
    rows: [
      {
        scope: { kind: 'session', sessionId, turn: 0 },
        slot: 0,
        toolId: 'shell',
        tier: 3,
        state: 'committed',
        argsDigest: 'legacy-digest',
        callId: 'legacy:session',
        resultJson: JSON.stringify({ modelValue: `output ${canary}`, truncated: false, summary: '', outputMappingResult: null }),
      },
    ],
  });
}

describe('WAL byte scan (§11)', () => {
  it('open clears legacy session results and the checkpoint erases their bytes from both files', () => {
    const canary = 'CANARY-legacy-7f3a9c2e51';
    const first = fx.open();
    const files = first.files().files;
    seedLegacySessionResult(first, 'S', canary);
    expect(scan(files, canary).some(Boolean)).toBe(true);
    first.close();
    expect(scan(files, canary).some(Boolean)).toBe(true);

    const reopened = fx.open();
    // Scanned while the connection is still open.
    expect(scan(files, canary)).toEqual([false, false]);
    expect(reopened.listEffects().effects[0]).toMatchObject({ state: 'committed', resultRetained: false, argsDigest: 'legacy-digest' });
  });

  it('a blocked reader defers the checkpoint; a later empty sweep completes it and the bytes are gone', () => {
    const canary = 'CANARY-blocked-4d8e0b6a29';
    const j = fx.open();
    const files = j.files().files;
    j.fault({ fault: 'checkpoint_blocked_by_reader', enabled: true });
    seedLegacySessionResult(j, 'S2', canary);
    const read = j.sessionRead({ sessionId: 'S2', transcript: [] });
    expect(j.sessionSweep({ sessionId: 'S2', captured: read.captured })).toEqual({ deleted: 1, checkpoint: 'deferred' });
    expect(j.checkpoint()).toEqual({ checkpoint: 'deferred' });
    // The control: with the reader pinning the WAL the old page images may remain.
    expect(scan(files, canary)[1]).toBe(true);

    j.fault({ fault: 'checkpoint_blocked_by_reader', enabled: false });
    expect(j.sessionSweep({ sessionId: 'S2', captured: [] })).toEqual({ deleted: 0, checkpoint: 'complete' });
    expect(scan(files, canary)).toEqual([false, false]);
    expect(fx.crashpoints).toContain('checkpoint.before');
  });

  it('secret argument bytes never reach either file', () => {
    const secretCanary = 'CANARY-secret-arg-91c4e7';
    const bearerCanary = 'CANARY-bearer-0b5d2f83';
    const j = fx.open();
    const files = j.files().files;
    const id = proceedId(
      j.prepare(
        runPrepare({
          args: { to: 'ops@example.com', apiSecret: secretCanary, headers: { Authorization: `Bearer ${bearerCanary}` } },
          secretArgKeys: ['apiSecret'],
        }),
      ),
    );
    j.settle({ effectId: id, state: 'committed', result: RESULT });
    expect(scan(files, secretCanary)).toEqual([false, false]);
    expect(scan(files, bearerCanary)).toEqual([false, false]);
    j.close();
    expect(scan(files, secretCanary)).toEqual([false, false]);
    expect(scan(files, bearerCanary)).toEqual([false, false]);
  });
});
