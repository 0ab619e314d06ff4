// Shared fixtures for the driver-layer tests: launches, sample params, and process-table checks.
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { Launch } from '../../reports/schema.js';
import type { DriverHandle } from '../../harness/driver/index.js';
import type { OpParams } from '../../shared/protocol/schemas.js';
import { TrialContext } from '../../harness/engine/trial-context.js';
import { createTrialDir, type TrialDir } from '../../harness/trial-dir.js';
import { resolveForSpawn } from '../../runner/run-conformance.js';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const fixtures = join(root, 'test', 'fixtures');
export const tinyJournal = join(fixtures, 'adapters', 'tiny-journal.mjs');

/** A module launch of the tiny in-memory adapter through the host driver. */
export function tinyLaunch(options: Record<string, string> = {}): Launch {
  return { kind: 'module', module: tinyJournal, options };
}

/** A trial on the tiny adapter in a fresh trial directory (conservative, no sessions); `end` kills its drivers and removes the directory. */
export async function tinyTrial(id: string, crashPoints: readonly string[] = []): Promise<{ t: TrialContext; dir: TrialDir; end: () => Promise<void> }> {
  const dir = await createTrialDir();
  const capabilities = { crashPoints: [...crashPoints], faults: [], tierMode: 'conservative' as const, sessions: false, seeding: false, outerTransactionProbe: false };
  const t = new TrialContext({ id, seed: 1, dir: dir.path, launch: resolveForSpawn(tinyLaunch()), timeoutMs: 60_000, capabilities });
  return {
    t,
    dir,
    end: async () => {
      await t.killAll();
      await dir.cleanup();
    },
  };
}

/** A command launch of the misbehaving fake driver in the given mode, optionally behind a shell prefix. */
export function fakeLaunch(mode: string, shellPrefix = ''): Launch {
  const script = join(fixtures, 'drivers', 'fake-driver.mjs');
  return { kind: 'command', command: `${shellPrefix}exec "${process.execPath}" "${script}" ${mode}` };
}

export const prepareParams: OpParams<'prepare'> = {
  correlation: { kind: 'run', runId: 'run-1', nodeId: 'node-1', attempt: 1 },
  slot: 0,
  toolId: 'http_request',
  tier: 3,
  args: { url: 'https://example.test/a', method: 'POST' },
  secretArgKeys: [],
  audit: { providerAttempt: 0, callId: 'call-1', ownerId: 'owner-1', generation: 0 },
};

/** True while a process with this pid exists in the process table (zombies included). */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw err;
  }
}

/** Polls until the pid is gone from the process table: an orphaned zombie waits for init to reap it. */
export async function waitUntilGone(pid: number, maxMs = 120_000): Promise<boolean> {
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline) {
    if (!pidExists(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !pidExists(pid);
}

/** Collects handles so each test's afterEach can kill whatever it started, pass or fail. */
export class DriverPool {
  private readonly handles: DriverHandle[] = [];
  track<T extends DriverHandle>(handle: T): T {
    this.handles.push(handle);
    return handle;
  }
  async killAll(): Promise<void> {
    await Promise.all(this.handles.splice(0).map((h) => h.kill()));
  }
}
