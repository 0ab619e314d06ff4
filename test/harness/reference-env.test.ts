// The reference journal's drivers leave out NODE_EXTRA_CA_CERTS (a cost of every node start); any other journal keeps it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TrialContext } from '../../harness/engine/trial-context.js';
import { isReferenceLaunch } from '../../harness/reference-env.js';
import { defaultLaunch, resolveForSpawn } from '../../runner/run-conformance.js';
import { createTrialDir, type TrialDir } from '../../harness/trial-dir.js';
import type { Launch } from '../../reports/schema.js';
import { tinyLaunch } from './helpers.js';

const capabilities = { crashPoints: [], faults: [], tierMode: 'conservative' as const, sessions: false, seeding: false, outerTransactionProbe: false };
let dir: TrialDir;
let saved: string | undefined;
beforeEach(async () => {
  dir = await createTrialDir('ejc-reference-env');
  saved = process.env['NODE_EXTRA_CA_CERTS'];
  // An empty certificate file: node loads it without a warning, so the test sees only whether it was passed on.
  const certs = join(dir.path, 'extra-ca.pem');
  writeFileSync(certs, '');
  process.env['NODE_EXTRA_CA_CERTS'] = certs;
});
afterEach(async () => {
  if (saved === undefined) delete process.env['NODE_EXTRA_CA_CERTS'];
  else process.env['NODE_EXTRA_CA_CERTS'] = saved;
  await dir.cleanup();
});

// The variable as the running driver process sees it, read from its environment in /proc.
async function driverSees(launch: Launch, name: string): Promise<string | null> {
  const t = new TrialContext({ id: `${name}#1`, seed: 1, dir: join(dir.path), launch, timeoutMs: 20_000, capabilities });
  try {
    const client = await t.driver('primary', { journalDir: join(dir.path, name) });
    const env = readFileSync(`/proc/${client.handle.pid}/environ`, 'utf8').split('\0');
    const line = env.find((l) => l.startsWith('NODE_EXTRA_CA_CERTS='));
    return line === undefined ? null : line.slice('NODE_EXTRA_CA_CERTS='.length);
  } finally {
    await t.closeAll();
  }
}

describe('the reference journal driver environment', () => {
  it('recognises the bundled reference journal and nothing else', () => {
    expect(isReferenceLaunch(resolveForSpawn(defaultLaunch()))).toBe(true);
    expect(isReferenceLaunch(resolveForSpawn(tinyLaunch()))).toBe(false);
    expect(isReferenceLaunch({ kind: 'command', command: 'node dist/reference-impl/adapter.bundle.js' })).toBe(false);
  });

  it('starts reference drivers without NODE_EXTRA_CA_CERTS and leaves it to every other journal', async () => {
    expect(await driverSees(resolveForSpawn(defaultLaunch()), 'reference')).toBeNull();
    expect(await driverSees(resolveForSpawn(tinyLaunch()), 'tiny')).toBe(process.env['NODE_EXTRA_CA_CERTS']);
  });
});
