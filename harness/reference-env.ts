// What a driver of the bundled reference journal does not inherit from the harness's environment, and why.
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Launch } from '../reports/schema.js';

/**
 * Variables removed from the environment of the reference journal's drivers (an `undefined` value removes an
 * inherited variable). Node 20 parses the whole NODE_EXTRA_CA_CERTS file at the start of every process; pointed at
 * a system bundle (150 certificates) that is three quarters of a bare node start's CPU, paid by each of the matrix's
 * ~360 drivers. The reference journal opens no TLS connection, so it never reads them. Any other implementation
 * keeps its environment as given: it may need those certificates.
 */
export const REFERENCE_DRIVER_ENV: Readonly<Record<string, undefined>> = { NODE_EXTRA_CA_CERTS: undefined };

/** The environment overrides for drivers of `launch`: REFERENCE_DRIVER_ENV for the bundled reference journal, else none. */
export function driverEnvFor(launch: Launch): Readonly<Record<string, undefined>> {
  return isReferenceLaunch(launch) ? REFERENCE_DRIVER_ENV : {};
}

/** Whether `launch` runs the bundled reference adapter (its bundle or its tsc output, from dist/ or the sources). */
export function isReferenceLaunch(launch: Launch): boolean {
  if (launch.kind !== 'module') return false;
  return REFERENCE_DIRS.includes(dirname(launch.module)) && REFERENCE_FILES.includes(basename(launch.module));
}

const HERE = dirname(fileURLToPath(import.meta.url));
// Compiled, this file sits in dist/harness/ next to dist/reference-impl/; tests import it from harness/ in the sources.
const REFERENCE_DIRS = [resolve(HERE, '../reference-impl'), resolve(HERE, '../dist/reference-impl')];
const REFERENCE_FILES = ['adapter.js', 'adapter.bundle.cjs'];
