// The spare generated trials keep: a driver started ahead that takes the name of whichever call uses it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { liveDriverGroups } from '../../harness/driver/index.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import { tinyTrial } from './helpers.js';

let t: TrialContext;
let end: () => Promise<void>;
beforeEach(async () => {
  ({ t, end } = await tinyTrial('spare#1', ['prepare.before-commit']));
});
afterEach(() => end());

// The spare's group: the one live driver group no call has taken yet.
function spareGroup(taken: readonly number[]): number {
  const free = liveDriverGroups().filter((g) => !taken.includes(g));
  expect(free).toHaveLength(1);
  return free[0]!;
}

describe('TrialContext.keepSpare', () => {
  it('hands the spare to the next call whatever its label, under that call’s name, and starts the next spare', async () => {
    t.keepSpare(() => ({ env: undefined }));
    const first = spareGroup([]);
    const primary = await t.driver('primary');
    expect(primary.handle.pid).toBe(first);
    expect(primary.label).toBe('primary#1');
    const second = spareGroup([primary.handle.pid]);
    const rival = await t.driver('rival');
    expect(rival.handle.pid).toBe(second);
    expect(rival.label).toBe('rival#2');
    // The record names each by the call that took it, from its spawn on: no entry keeps the spare's name.
    const names = new Set(t.record.entries().flatMap((e) => ('driver' in e && e.driver !== null ? [e.driver] : [])));
    expect([...names].filter((n) => !n.startsWith('spare-')).sort()).toEqual(['primary#1', 'rival#2']);
    expect(t.record.entries().filter((e) => e.kind === 'start' && e.driver === 'rival#2')).toHaveLength(1);
    await expect(rival.op('files', {})).resolves.toEqual({ files: [] });
  });

  it('keeps a spare on another environment for a later call that asks for it, and starts the mismatched call itself', async () => {
    const later = { EJC_TEST_SPARE_ENV: 'later' };
    t.keepSpare(() => ({ env: later }));
    const spare = spareGroup([]);
    const now = await t.driver('primary');
    expect(now.handle.pid).not.toBe(spare);
    const taken = await t.driver('primary', { env: later });
    expect(taken.handle.pid).toBe(spare);
    expect(taken.label).toBe('primary#2');
  });

  it('replaces the spare when the policy names another environment, and leaves no process once it ends', async () => {
    let env: Record<string, string> | undefined;
    t.keepSpare(() => ({ env }));
    const old = spareGroup([]);
    env = { EJC_TEST_SPARE_ENV: 'jumped' };
    t.refreshSpare();
    const replacement = await t.driver('primary', { env });
    expect(replacement.handle.pid).not.toBe(old);
    t.keepSpare(null);
    await t.closeAll();
    expect(liveDriverGroups()).toEqual([]);
  });

  it('moves a spare’s stderr log to the name of the driver it became', async () => {
    // Node's module debugging writes to stderr while the spare starts, before any call takes it.
    const chatty = { NODE_DEBUG: 'module' };
    t.keepSpare(() => ({ env: chatty }));
    spareGroup([]);
    const taken = await t.driver('primary', { env: chatty });
    await taken.op('files', {});
    const log = join(t.dir, 'driver-1.stderr.log');
    expect(readFileSync(log, 'utf8')).toContain('MODULE');
    expect(existsSync(join(t.dir, 'driver-spare-1.stderr.log'))).toBe(false);
  });
});
