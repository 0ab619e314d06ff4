// Misbehaving drivers: every broken message becomes a ProtocolViolation naming op and field, never a harness crash.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { liveDriverGroups, liveGroupMembers, startDriver } from '../../harness/driver/index.js';
import { EjcError, ProtocolViolation } from '../../shared/errors.js';
import { DriverPool, fakeLaunch, fixtures, prepareParams, root, waitUntilGone } from './helpers.js';

const pool = new DriverPool();
afterEach(async () => {
  await pool.killAll();
});

const opts = { label: 'suspect', cwd: root, timeoutMs: 20_000 };

async function violationFrom(mode: string, call: (d: Awaited<ReturnType<typeof startDriver>>) => Promise<unknown>) {
  const driver = pool.track(await startDriver(fakeLaunch(mode), opts));
  const err = await call(driver).then(
    () => null,
    (e: unknown) => e,
  );
  // Sampled before awaiting anything else: a failed call must only reject once the group is gone.
  const liveAfterReject = liveGroupMembers(driver.pid);
  const exit = await driver.exited;
  return { driver, err, exit, liveAfterReject };
}

describe('protocol violations', () => {
  it('reports a non-JSON line, kills the driver and keeps the harness alive', async () => {
    const { driver, err, exit, liveAfterReject } = await violationFrom('garbage', (d) => d.call('files', {}));
    expect(liveAfterReject).toEqual([]);
    expect(err).toBeInstanceOf(ProtocolViolation);
    expect(err).toMatchObject({ code: 'protocol_violation', op: 'files', field: null, line: 'this is not json at all' });
    expect(driver.violations).toEqual([err]);
    expect(exit).toEqual({ signal: 'SIGKILL', exitCode: null, killedByHarness: true, tree: { processes: 1, escaped: [], survivors: [] } });
    expect(await waitUntilGone(driver.pid)).toBe(true);
    await expect(driver.call('files', {})).rejects.toMatchObject({ code: 'driver_exited' });
  });

  it('names the op and the field path of an invalid result', async () => {
    const { err } = await violationFrom('bad-field', (d) => d.call('prepare', prepareParams));
    expect(err).toMatchObject({ op: 'prepare', field: 'result.verdict' });
    expect((err as Error).message).toContain('prepare result.verdict');
  });

  it('rejects a response whose id does not match the pending request', async () => {
    const { err } = await violationFrom('wrong-id', (d) => d.call('checkpoint', {}));
    expect(err).toMatchObject({ code: 'protocol_violation', op: 'checkpoint', field: 'id' });
  });

  it('treats a crash point announced while no request is pending as a violation', async () => {
    const driver = pool.track(await startDriver(fakeLaunch('crashpoint-unprompted'), opts));
    await expect(driver.exited).resolves.toMatchObject({ signal: 'SIGKILL', killedByHarness: true });
    expect(driver.violations).toHaveLength(1);
    expect(driver.violations[0]).toMatchObject({ code: 'protocol_violation', op: null, field: 'type' });
    await expect(driver.call('checkpoint', {})).rejects.toMatchObject({ code: 'driver_exited' });
  });

  it('reports a driver that exits by itself mid-call as driver_exited with its exit code and stderr', async () => {
    const { err, exit } = await violationFrom('exit-mid-call', (d) => d.call('checkpoint', {}));
    expect(err).toBeInstanceOf(EjcError);
    expect(err).toMatchObject({ code: 'driver_exited' });
    expect((err as Error).message).toContain('exit code 7');
    expect((err as Error).message).toContain('giving up');
    expect(exit).toEqual({ signal: null, exitCode: 7, killedByHarness: false, tree: { processes: 0, escaped: [], survivors: [] } });
  });

  it('refuses a driver speaking another protocol version', async () => {
    const failure = await startDriver(fakeLaunch('good'), { ...opts, env: { FAKE_PROTOCOL_VERSION: '2' } }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'driver_start_failed' });
    expect((failure as Error).message).toContain('does not speak protocol version 1');
  });
});

describe('adapter pre-flight', () => {
  it('fails with adapter_missing naming the path and the fix, without spawning anything', async () => {
    const before = liveDriverGroups();
    const missing = join(fixtures, 'adapters', 'does-not-exist.mjs');
    const failure = await startDriver({ kind: 'module', module: missing, options: {} }, opts).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(EjcError);
    expect(failure).toMatchObject({ code: 'adapter_missing' });
    expect((failure as Error).message).toContain(missing);
    expect((failure as Error).message).toContain('npx tsc -p .');
    expect(liveDriverGroups()).toEqual(before);
  });

  it('fails with adapter_shape when the module exports no factory, quoting the host', async () => {
    const failure = await startDriver({ kind: 'module', module: join(fixtures, 'adapters', 'wrong-shape.mjs'), options: {} }, opts).catch(
      (e: unknown) => e,
    );
    expect(failure).toMatchObject({ code: 'adapter_shape' });
    expect((failure as Error).message).toContain('exports neither a createJournal function nor a default function');
    expect((failure as Error).message).toContain('journal, version');
  });

  it('fails with driver_start_failed and the stderr tail when a command dies before hello', async () => {
    const failure = await startDriver({ kind: 'command', command: 'echo "cannot find my database" >&2; exit 4' }, opts).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'driver_start_failed' });
    expect((failure as Error).message).toContain('cannot find my database');
    expect((failure as Error).message).toContain('exit code 4');
  });
});
