// Drivers started ahead: the restart after a kill is a fresh process spawned during the phase, never the killed one.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { liveDriverGroups } from '../../harness/driver/index.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import { tinyTrial } from './helpers.js';
import { crashDuring } from '../../scenarios/support.js';

let t: TrialContext;
let end: () => Promise<void>;
beforeEach(async () => {
  ({ t, end } = await tinyTrial('ahead#1', ['prepare.before-commit']));
});
afterEach(() => end());

describe('TrialContext.startAhead', () => {
  it('starts the restart driver alongside the victim, as a new process, and hands it to the call after the kill', async () => {
    t.planCrash({ kind: 'boundary', boundary: 'after-prepare' });
    t.startAhead('primary', { skip: 1 });
    const victim = await t.driver();
    // Two groups: the victim, and the driver started ahead for the call after it.
    expect(liveDriverGroups()).toHaveLength(2);
    await t.untilCrash(() => t.boundary('after-prepare', victim));
    expect(t.kills.map((k) => [k.point, k.signal])).toEqual([['boundary:after-prepare', 'SIGKILL']]);
    // The victim's group is gone; the one left is the driver started ahead, which opened nothing yet.
    const ahead = liveDriverGroups();
    expect(ahead).toHaveLength(1);
    expect(ahead[0]).not.toBe(victim.handle.pid);
    const restarted = await t.driver();
    expect(restarted.handle.pid).toBe(ahead[0]);
    expect(restarted.label).toBe('primary#2');
    expect(t.tally.restarts).toBe(1);
    await expect(restarted.op('files', {})).resolves.toEqual({ files: [] });
  });

  it('crashDuring spawns the driver the phase runs on before the one started ahead for the restart', async () => {
    await crashDuring(t, { kind: 'boundary', boundary: 'after-prepare' }, (victim) => t.boundary('after-prepare', victim));
    expect(t.kills.map((k) => k.driver)).toEqual(['primary#1']);
    // Spawn order is the record's order of start entries: the first driver's hello is what the trial waits on.
    expect(t.record.entries().filter((e) => e.kind === 'start').map((e) => e.driver)).toEqual(['primary#1', 'primary#2']);
    const restarted = await t.driver();
    expect(restarted.label).toBe('primary#2');
    expect(t.tally.restarts).toBe(1);
  });

  it('hands a driver started ahead with an environment (a moved clock) only to the call asking for that environment', async () => {
    const later = { EJC_TEST_AHEAD_ENV: 'later' };
    t.startAhead('primary', { env: later });
    const ahead = liveDriverGroups()[0];
    const taken = await t.driver('primary', { env: later });
    expect(taken.handle.pid).toBe(ahead);
    t.startAhead('primary', { env: later });
    const discarded = liveDriverGroups().find((g) => g !== taken.handle.pid);
    const fresh = await t.driver('primary');
    expect(fresh.handle.pid).not.toBe(discarded);
    expect(liveDriverGroups().sort()).toEqual([taken.handle.pid, fresh.handle.pid].sort());
  });

  it('discards a driver started ahead when the next call asks for another one, leaving no process behind', async () => {
    t.planCrash({ kind: 'boundary', boundary: 'after-prepare' });
    const victim = await t.driver();
    await t.untilCrash(() => t.boundary('after-prepare', victim));
    const ahead = liveDriverGroups()[0];
    const rival = await t.driver('rival');
    expect(rival.label).toBe('rival#2');
    expect(liveDriverGroups()).toEqual([rival.handle.pid]);
    expect(rival.handle.pid).not.toBe(ahead);
    t.startAhead();
    await t.closeAll();
    expect(liveDriverGroups()).toEqual([]);
  });
});
