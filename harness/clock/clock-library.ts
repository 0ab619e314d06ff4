// The preload library that moves a restarted driver's wall clock: libfaketime where installed, else a shim ejc builds.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerTempDir } from '../driver/registry.js';
import { CLOCK_SHIM_SOURCE } from './shim-source.js';

/** Which library moves the clock, and where it is. */
export interface ClockLibrary {
  readonly path: string;
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
  cached = lib !== null ? { path: lib, kind: 'libfaketime' } : process.env['EJC_CLOCK_SHIM'] === 'off' ? null : buildShim();
  return cached;
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

/** Compiles the shim with the machine's cc (the one that builds better-sqlite3); null when there is none or it fails. */
function buildShim(): ClockLibrary | null {
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), 'clk-'));
  } catch {
    return null;
  }
  registerTempDir(dir);
  const source = join(dir, 'clock.c');
  const path = join(dir, 'clock.so');
  writeFileSync(source, CLOCK_SHIM_SOURCE);
  const cc = spawnSync('cc', ['-shared', '-fPIC', '-O2', '-o', path, source, '-ldl'], { encoding: 'utf8', timeout: 60_000 });
  return cc.status === 0 && existsSync(path) ? { path, kind: 'shim' } : null;
}
