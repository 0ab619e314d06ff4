// Real SIGKILL of real process groups: at a protocol boundary, at an announced crash point, and on timeout.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { liveDriverGroups, liveGroupMembers, processState, startDriver } from '../../harness/driver/index.js';
import { EjcError } from '../../shared/errors.js';
import { createTrialDir } from '../../harness/trial-dir.js';
import type { TrialDir } from '../../harness/trial-dir.js';
import { DriverPool, fakeLaunch, pidExists, prepareParams, root, tinyLaunch, waitUntilGone } from './helpers.js';
import { newTag, ownProcesses, TAG_VAR } from './own-processes.js';

const pool = new DriverPool();
let trial: TrialDir;
beforeEach(async () => {
  trial = await createTrialDir('ejc-kill-test');
});
afterEach(async () => {
  await pool.killAll();
  await trial.cleanup();
});

const opts = (timeoutMs = 20_000) => ({ label: 'primary', cwd: root, timeoutMs });

describe('killing drivers', () => {
  it('kills at a protocol boundary (after a response) and reports SIGKILL by the harness', async () => {
    const driver = pool.track(await startDriver(tinyLaunch(), opts()));
    await driver.call('open', { dir: trial.path, armedCrashPoints: [] });
    const prepared = await driver.call('prepare', prepareParams);
    expect(prepared.kind).toBe('result');
    const seqBefore = driver.seq;
    const info = await driver.kill();
    // One process (the host driver), killed by the harness, nothing escaped or survived.
    expect(info).toEqual({ signal: 'SIGKILL', exitCode: null, killedByHarness: true, tree: { processes: 1, escaped: [], survivors: [] } });
    expect(driver.seq).toBe(seqBefore);
    // Idempotent: a second kill reports the same observation.
    await expect(driver.kill()).resolves.toEqual(info);
    await expect(driver.exited).resolves.toEqual(info);
    expect(liveGroupMembers(driver.pid)).toEqual([]);
    expect(liveDriverGroups()).not.toContain(driver.pid);
    expect(await waitUntilGone(driver.pid)).toBe(true);
    await expect(driver.call('gate', { scope: { kind: 'run', runId: 'r', nodeId: 'n' } })).rejects.toMatchObject({ code: 'driver_exited' });
  });

  it('kills at an announced crash point while the driver is blocked inside prepare', async () => {
    const driver = pool.track(await startDriver(tinyLaunch(), opts()));
    await driver.call('open', { dir: trial.path, armedCrashPoints: ['prepare.before-commit'] });
    const outcome = await driver.call('prepare', prepareParams);
    expect(outcome).toMatchObject({ kind: 'crashpoint', point: 'prepare.before-commit' });
    // Still blocked, not exited: the point is a real pause, not a simulated one.
    expect(processState(driver.pid)).not.toBeNull();
    expect(processState(driver.pid)).not.toBe('Z');
    const info = await driver.kill();
    expect(info).toEqual({ signal: 'SIGKILL', exitCode: null, killedByHarness: true, tree: { processes: 1, escaped: [], survivors: [] } });
    if (outcome.kind === 'crashpoint') await expect(outcome.resume()).rejects.toMatchObject({ code: 'driver_exited' });
  });

  it('times out a hanging driver, kills its group and leaves no survivor', async () => {
    const driver = pool.track(await startDriver(fakeLaunch('hang'), opts(1_500)));
    const failure = await driver.call('checkpoint', {}).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(EjcError);
    expect(failure).toMatchObject({ code: 'operation_timeout' });
    expect((failure as Error).message).toContain('checkpoint');
    expect((failure as Error).message).toContain('1500 ms');
    await expect(driver.exited).resolves.toEqual({ signal: 'SIGKILL', exitCode: null, killedByHarness: true, tree: { processes: 1, escaped: [], survivors: [] } });
    expect(await waitUntilGone(driver.pid)).toBe(true);
  });

  it('kills the grandchildren of a command launch with the group', async () => {
    // Found by this test's tag: a pid the driver reads inside its own PID namespace is not the harness's.
    const tag = newTag('driver-kill');
    const driver = pool.track(await startDriver(fakeLaunch('hang', 'sleep 300 & '), { ...opts(1_500), env: { [TAG_VAR]: tag } }));
    const grandchild = ownProcesses(tag).find((p) => p.cmdline === 'sleep 300')!.pid;
    expect(pidExists(grandchild)).toBe(true);
    await expect(driver.call('listEffects', {})).rejects.toMatchObject({ code: 'operation_timeout' });
    await driver.exited;
    // Right after the kill nothing in the group runs; the orphaned zombie then disappears once init reaps it.
    expect(liveGroupMembers(driver.pid)).toEqual([]);
    expect(['Z', null]).toContain(processState(grandchild));
    expect(await waitUntilGone(grandchild)).toBe(true);
    expect(() => process.kill(grandchild, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });
});
