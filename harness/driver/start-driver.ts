// startDriver: spawn a driver for a Launch and complete the `hello` handshake, or explain why it could not start.
import { EjcError, ProtocolViolation } from '../../shared/errors.js';
import { PROTOCOL_VERSION } from '../../shared/protocol/schemas.js';
import type { Launch } from '../../reports/schema.js';
import { spawnDriver } from './driver-process.js';
import type { DriverProcess } from './driver-process.js';
import { resolveLaunch } from './launch.js';
import type { DriverHandle, StartDriverOptions } from './types.js';

/** Starts a driver and resolves once it answered a valid `hello` speaking this harness's protocol version. */
export async function startDriver(launch: Launch, opts: StartDriverOptions): Promise<DriverHandle> {
  const spec = resolveLaunch(launch, opts.cwd);
  const driver = spawnDriver(spec, opts);
  let failure: unknown;
  try {
    const outcome = await driver.call('hello', {}, { timeoutMs: opts.timeoutMs });
    if (outcome.kind === 'result') {
      driver.setHello(outcome.result);
      return driver;
    }
    const what = outcome.kind === 'error' ? `an error (${outcome.code}: ${outcome.message})` : `a crash point (${outcome.point})`;
    failure = new EjcError('driver_start_failed', `${opts.label}: ${spec.describe} answered hello with ${what}`);
  } catch (err) {
    failure = err;
  }
  await driver.kill();
  throw startError(driver, spec.describe, failure, launch.kind);
}

/** Maps a failed handshake to the most specific error: what the host said, a version mismatch, or a start failure. */
function startError(driver: DriverProcess, describe: string, failure: unknown, kind: Launch['kind']): EjcError {
  const tail = driver.stderrTail(20);
  const hostLine = [...tail].reverse().find((line) => line.startsWith('ejc-host: '));
  const said = hostLine === undefined ? null : /^ejc-host: ([a-z_]+): (.*)$/.exec(hostLine);
  if (said !== null && (said[1] === 'adapter_missing' || said[1] === 'adapter_shape')) {
    return new EjcError(said[1], `${driver.label}: ${said[2] ?? hostLine}`, { cause: failure });
  }
  // The host checks only the outline of an adapter's capabilities; their fields are checked here, as hello arrives.
  if (kind === 'module' && failure instanceof ProtocolViolation && failure.op === 'hello' && failure.field?.startsWith('result.capabilities') === true) {
    return new EjcError('adapter_shape', `${driver.label}: the adapter's ${failure.field.slice('result.'.length)} is invalid (${failure.message})`, { cause: failure });
  }
  if (failure instanceof ProtocolViolation && failure.field === 'result.protocolVersion') {
    return new EjcError(
      'driver_start_failed',
      `${driver.label}: ${describe} does not speak protocol version ${PROTOCOL_VERSION} (${failure.message})`,
      { cause: failure },
    );
  }
  const reason = failure instanceof Error ? failure.message : String(failure);
  const stderr = tail.length === 0 ? ' (no stderr output)' : `; stderr tail:\n${tail.join('\n')}`;
  return new EjcError('driver_start_failed', `${driver.label}: ${describe} failed before answering hello: ${reason}${stderr}`, { cause: failure });
}
