// The host driver end to end: a real child process per test, serving the tiny in-memory adapter.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDriver } from '../../harness/driver/index.js';
import { createTrialDir } from '../../harness/trial-dir.js';
import type { TrialDir } from '../../harness/trial-dir.js';
import { DriverPool, prepareParams, root, tinyLaunch } from './helpers.js';

const pool = new DriverPool();
let trial: TrialDir;
beforeEach(async () => {
  trial = await createTrialDir();
});
afterEach(async () => {
  await pool.killAll();
  await trial.cleanup();
});

const start = async (options: Record<string, string> = {}, stderrFile?: string) =>
  pool.track(
    await startDriver(tinyLaunch(options), {
      label: 'primary',
      cwd: root,
      timeoutMs: 60_000,
      ...(stderrFile === undefined ? {} : { stderrFile }),
    }),
  );

describe('host driver', () => {
  it('answers hello with the adapter identity, capabilities and protocol version, passing --option through', async () => {
    const driver = await start({ name: 'tiny-renamed' });
    expect(driver.hello).toEqual({
      name: 'tiny-renamed',
      version: '0.0.1',
      protocolVersion: 1,
      capabilities: expect.objectContaining({ crashPoints: ['prepare.before-commit'], tierMode: 'conservative' }),
    });
    expect(driver.seq).toBe(2);
    expect(driver.pid).toBeGreaterThan(0);
  });

  it('serves a CommonJS (.cjs) adapter, which it require()s: module.exports as the factory, as import() would give it', async () => {
    const launch = { kind: 'module' as const, module: join(root, 'test', 'fixtures', 'adapters', 'tiny-commonjs.cjs'), options: { name: 'cjs-renamed' } };
    const driver = pool.track(await startDriver(launch, { label: 'primary', cwd: root, timeoutMs: 60_000 }));
    expect(driver.hello).toMatchObject({ name: 'cjs-renamed', version: '0.0.2', protocolVersion: 1 });
    expect(await driver.call('open', { dir: trial.path, armedCrashPoints: [] })).toMatchObject({ kind: 'result', result: { files: [] } });
  });

  it('refuses an adapter whose capabilities are invalid with adapter_shape naming the field', async () => {
    const failure = await start({ tierMode: 'sometimes' }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'adapter_shape' });
    expect((failure as Error).message).toContain('capabilities.tierMode');
  });

  it('serves operations, maps a JournalError to its code and any other throw to internal', async () => {
    const driver = await start();
    await expect(driver.call('open', { dir: trial.path, armedCrashPoints: [] })).resolves.toMatchObject({ kind: 'result', result: { files: [] } });
    const prepared = await driver.call('prepare', prepareParams);
    expect(prepared).toMatchObject({ kind: 'result', result: { verdict: 'proceed', effectId: 'e1' } });
    const again = await driver.call('prepare', prepareParams);
    expect(again).toMatchObject({ kind: 'result', result: { verdict: 'refuse', code: 'duplicate_identity' } });
    const missing = await driver.call('settle', { effectId: 'nope', state: 'committed', result: null });
    expect(missing).toMatchObject({ kind: 'error', code: 'settle_no_row', message: 'no row nope' });
    const exploded = await driver.call('runTerminal', { runId: 'run-1' });
    expect(exploded).toMatchObject({ kind: 'error', code: 'internal' });
    expect(exploded.kind === 'error' && exploded.message).toContain('runTerminal exploded');
    expect(driver.violations).toEqual([]);
  });

  it('answers invalid params with unsupported naming the field, without killing the driver', async () => {
    const driver = await start();
    const bad = await driver.call('gate', { scope: { kind: 'run', runId: '', nodeId: 'n' } });
    expect(bad).toMatchObject({ kind: 'error', code: 'unsupported' });
    expect(bad.kind === 'error' && bad.message).toContain('params.scope.runId');
    await expect(driver.call('checkpoint', {})).resolves.toMatchObject({ kind: 'result', result: { checkpoint: 'complete' } });
  });

  it('announces an armed crash point, then delivers the result after resume', async () => {
    const driver = await start();
    await driver.call('open', { dir: trial.path, armedCrashPoints: ['prepare.before-commit'] });
    const outcome = await driver.call('prepare', prepareParams);
    expect(outcome).toMatchObject({ kind: 'crashpoint', point: 'prepare.before-commit' });
    if (outcome.kind !== 'crashpoint') return;
    expect(outcome.seq).toBe(driver.seq);
    const resumed = await outcome.resume();
    expect(resumed).toMatchObject({ kind: 'result', result: { verdict: 'proceed', effectId: 'e1' } });
    // The resume itself is a protocol message: request, crashpoint, resume, response.
    expect(resumed.seq).toBe(outcome.seq + 2);
    await expect(outcome.resume()).rejects.toMatchObject({ code: 'internal' });
  });

  it('does not block at an unarmed crash point', async () => {
    const driver = await start();
    await driver.call('open', { dir: trial.path, armedCrashPoints: [] });
    await expect(driver.call('prepare', prepareParams)).resolves.toMatchObject({ kind: 'result', result: { verdict: 'proceed' } });
  });

  it('keeps serving while the driver floods stderr, and appends stderr to the given file', async () => {
    const log = join(trial.path, 'driver.stderr.log');
    const driver = await start({ stderrSpam: String(2 * 1024 * 1024) }, log);
    await expect(driver.call('open', { dir: trial.path, armedCrashPoints: [] })).resolves.toMatchObject({ kind: 'result' });
    await driver.close();
    expect(readFileSync(log, 'utf8').length).toBeGreaterThanOrEqual(2 * 1024 * 1024);
    expect(driver.stderrTail(3)).toEqual(['x'.repeat(1023), 'x'.repeat(1023), 'x'.repeat(1023)]);
  });

  it('exits 0 on EOF when closed gracefully', async () => {
    const driver = await start();
    await driver.call('open', { dir: trial.path, armedCrashPoints: [] });
    await expect(driver.close()).resolves.toEqual({ signal: null, exitCode: 0, killedByHarness: false, tree: { processes: 0, escaped: [], survivors: [] } });
    await expect(driver.call('gate', { scope: { kind: 'run', runId: 'r', nodeId: 'n' } })).rejects.toMatchObject({ code: 'driver_exited' });
  });

  const referenceAdapter = join(root, 'dist', 'reference-impl', 'adapter.js');
  it.skipIf(!existsSync(referenceAdapter))('says hello through the compiled reference adapter', async () => {
    const driver = pool.track(
      await startDriver({ kind: 'module', module: referenceAdapter, options: {} }, { label: 'reference', cwd: root, timeoutMs: 60_000 }),
    );
    expect(driver.hello.protocolVersion).toBe(1);
    expect(driver.hello.name.length).toBeGreaterThan(0);
  });
});
