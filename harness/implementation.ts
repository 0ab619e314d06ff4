// The implementation a run tests: where its launch really points, the probe that learns its capabilities, its fingerprint.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDriver } from './driver/start-driver.js';
import { currentBundle } from './reference-bundle.js';
import { driverEnvFor } from './reference-env.js';
import { implSecretsEnv } from './secrets/impl-secrets.js';
import { EjcError } from '../shared/errors.js';
import type { Capabilities, HelloResult } from '../shared/protocol/schemas.js';
import { fingerprintLaunch, REFERENCE_MODULE } from '../reports/fingerprint.js';
import type { Launch, Report } from '../reports/schema.js';

export { REFERENCE_MODULE };

/** The fingerprint of what `options.launch` runs, with relative paths taken from the invoking directory. */
export function fingerprintImplementation(options: { readonly launch: Launch; readonly implFiles?: readonly string[] | undefined }): Report['fingerprint'] {
  const reference = options.launch.kind === 'module' && options.launch.module === REFERENCE_MODULE;
  return fingerprintLaunch(options.launch, { cwd: process.cwd(), implFiles: options.implFiles ?? [], ...(reference ? { referenceAdapter: referenceAdapterPath() } : {}) });
}

/** The bundled reference adapter's compiled path: its one-module bundle when that is current, else the tsc output. */
export function referenceAdapterPath(): string {
  const here = fileURLToPath(import.meta.url);
  const candidates = [resolve(dirname(here), '../reference-impl/adapter.js'), resolve(dirname(here), '../dist/reference-impl/adapter.js')];
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new EjcError('adapter_missing', `the reference adapter is not built (looked for ${candidates.join(', ')}): run npm run build`);
  return currentBundle(found) ?? found;
}

/** The launch as it is spawned: the reference alias and relative module paths made absolute. */
export function resolveForSpawn(launch: Launch): Launch {
  if (launch.kind !== 'module') return launch;
  const module = launch.module === REFERENCE_MODULE ? referenceAdapterPath() : resolve(process.cwd(), launch.module);
  return { ...launch, module };
}

/** One throwaway driver to learn the capabilities; a broken adapter fails here, before any trial. */
export async function probe(launch: Launch, timeoutMs: number, implSecrets?: Readonly<Record<string, string>>): Promise<HelloResult> {
  const env = { ...driverEnvFor(launch), ...implSecretsEnv(implSecrets) };
  const handle = await startDriver(launch, { label: 'probe', cwd: process.cwd(), timeoutMs, env });
  await handle.close();
  return handle.hello;
}

/** Capabilities with their lists sorted, as reports record them. */
export function sortedCaps(caps: Capabilities): Capabilities {
  return { ...caps, crashPoints: [...caps.crashPoints].sort(), faults: [...caps.faults].sort() };
}

/** The harness package version. */
export function harnessVersion(): string {
  const require = createRequire(import.meta.url);
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = require(rel) as { name?: string; version?: string };
      if (pkg.name === 'effect-journal-conformance' && pkg.version) return pkg.version;
    } catch {
      // try the next location: sources and dist sit at different depths
    }
  }
  return '0.0.0';
}
