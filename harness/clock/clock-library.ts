// The preload library that moves a restarted driver's wall clock: libfaketime where installed, else a shim ejc builds.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRegisteredTempDir } from '../trial-dir.js';
import { ccArgs, nativeBinary } from '../../shared/native-build.js';
import { faketimePairForDriver } from './faketime-shared.js';
import { CLOCK_SHIM_SOURCE } from './shim-source.js';
import { SLEEP_FIX_SOURCE } from './sleep-fix-source.js';

/** Which library moves the clock, and where it is. */
export interface ClockLibrary {
  readonly path: string;
  /** Preloaded in front of it (libfaketime only): sleep-fix-source.ts, where cc could build it. */
  readonly front?: string;
  /** `libfaketime`: Debian's faketime package (or EJC_LIBFAKETIME); `shim`: built here from CLOCK_SHIM_SOURCE with cc. */
  readonly kind: 'libfaketime' | 'shim';
}

let cached: ClockLibrary | null | undefined;

/**
 * The clock library for this machine, or null when neither libfaketime nor a C compiler is there (the clock
 * dimension is then not tested, and the report says so). Built once per harness process, into a directory removed
 * at exit and on a signal like every trial directory.
 */
export function clockLibrary(): ClockLibrary | null {
  if (cached !== undefined) return cached;
  const lib = libfaketimeLibrary();
  if (lib !== null) {
    const front = buildPreload('sleep-fix', SLEEP_FIX_SOURCE);
    cached = front === null ? { path: lib, kind: 'libfaketime' } : { path: lib, kind: 'libfaketime', front };
  } else {
    const shim = process.env['EJC_CLOCK_SHIM'] === 'off' ? null : buildPreload('clock', CLOCK_SHIM_SOURCE);
    cached = shim === null ? null : { path: shim, kind: 'shim' };
  }
  return cached;
}

/**
 * The environment of a driver whose wall clock runs `hours` ahead, or null when the clock cannot be moved here (a
 * scenario needing it declares `harness:clock`; a generated trial then has no clock jumps). Every moved-clock driver,
 * fixed or generated, starts from this one builder.
 */
export function movedClockEnv(hours: number): Record<string, string> | null {
  const lib = clockLibrary();
  if (lib === null) return null;
  const preload = process.env['LD_PRELOAD'];
  // Only libfaketime keeps a semaphore and segment in /dev/shm: the harness's pair (a copy per driver, released when the
  // driver is gone) spares a killed driver leaving its own, and no driver is hung by another's killed semaphore.
  const shared = lib.kind === 'libfaketime' ? faketimePairForDriver() : null;
  return {
    LD_PRELOAD: [lib.front, lib.path, preload].filter((p) => p !== undefined && p !== '').join(':'),
    FAKETIME: `+${hours}h`,
    // Monotonic clocks stay real: timeouts and busy waits must not jump with the wall clock.
    FAKETIME_DONT_FAKE_MONOTONIC: '1',
    ...(shared === null ? {} : { FAKETIME_SHARED: shared }),
  };
}

const LIBFAKETIME = ['/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/faketime/libfaketime.so.1', '/usr/local/lib/faketime/libfaketime.so.1'];

/**
 * Debian's libfaketime, or null. EJC_LIBFAKETIME names another path; `EJC_LIBFAKETIME=none` pretends it is absent
 * (how the tests show the shim standing in for it on a machine that has it).
 */
export function libfaketimeLibrary(): string | null {
  const custom = process.env['EJC_LIBFAKETIME'];
  if (custom === 'none') return null;
  if (custom) return existsSync(custom) ? custom : null;
  return LIBFAKETIME.find((p) => existsSync(p)) ?? null;
}

/**
 * A preload library compiled with the machine's cc (the one that builds better-sqlite3), once per checkout in
 * dist/native like the other helpers; where that cannot be (a read-only install, a path LD_PRELOAD cannot list), once
 * per harness process in a temp directory. Null when there is no cc or the build fails.
 */
function buildPreload(name: string, code: string): string | null {
  const shared = nativeBinary(`preload-${name}`, code, 'preload');
  // LD_PRELOAD separates its entries by spaces and colons: a path holding one cannot be listed.
  if (shared !== null && !/[\s:]/.test(shared)) return shared;
  let dir: string;
  try {
    dir = createRegisteredTempDir(tmpdir(), 'tmp-');
  } catch {
    return null;
  }
  const source = join(dir, `${name}.c`);
  const path = join(dir, `${name}.so`);
  writeFileSync(source, code);
  const cc = spawnSync('cc', ccArgs('preload', source, path), { encoding: 'utf8', timeout: 60_000 });
  return cc.status === 0 && existsSync(path) ? path : null;
}
