// Shared fixtures for the reference-journal tests: real journals on real SQLite files in temp dirs.
import { dir as tmpDir, type DirectoryResult } from 'tmp-promise';
import { createReferenceJournal, type ReferenceJournal } from '../../reference-impl/index.js';
import type { PrepareRequest, RecordedResult, TierMode } from '../../shared/protocol/schemas.js';

export interface Fixture {
  readonly dir: string;
  readonly journals: ReferenceJournal[];
  readonly crashpoints: string[];
  open(options?: { tierMode?: TierMode; onCrashpoint?: (point: string) => void }): ReferenceJournal;
  cleanup(): Promise<void>;
}

/** A temp directory plus every journal opened on it, all closed and removed by cleanup(). */
export async function makeFixture(): Promise<Fixture> {
  const tmp: DirectoryResult = await tmpDir({ unsafeCleanup: true, prefix: 'ejc-ref-' });
  const journals: ReferenceJournal[] = [];
  const crashpoints: string[] = [];
  return {
    dir: tmp.path,
    journals,
    crashpoints,
    open(options = {}) {
      const journal = createReferenceJournal({
        crashpoint: (point) => {
          crashpoints.push(point);
          options.onCrashpoint?.(point);
        },
        options: {},
        ...(options.tierMode ? { tierMode: options.tierMode } : {}),
      });
      journal.open({ dir: tmp.path });
      journals.push(journal);
      return journal;
    },
    async cleanup() {
      for (const journal of journals) journal.close();
      await tmp.cleanup();
    },
  };
}

/** A run-scoped prepare request with a declared secret key and a public field. */
export function runPrepare(overrides: Partial<PrepareRequest> & { runId?: string; nodeId?: string; attempt?: number } = {}): PrepareRequest {
  const { runId = 'R', nodeId = 'N', attempt = 1, ...rest } = overrides;
  return {
    correlation: { kind: 'run', runId, nodeId, attempt },
    slot: 0,
    toolId: 'send_email',
    tier: 3,
    args: { to: 'ops@example.com', apiSecret: 's3cr3t' },
    secretArgKeys: ['apiSecret'],
    outputMappingConfig: { path: '$.id' },
    audit: { providerAttempt: 0, callId: 'call-1', ownerId: 'owner-1', generation: 1 },
    ...rest,
  };
}

/** A session-scoped prepare request. */
export function sessionPrepare(sessionId: string, turn: number, slot: number, callId: string, toolId = 'shell'): PrepareRequest {
  return {
    correlation: { kind: 'session', sessionId, turn },
    slot,
    toolId,
    tier: 3,
    args: { command: 'touch x' },
    secretArgKeys: [],
    audit: { providerAttempt: 0, callId, ownerId: 'owner-1', generation: 1 },
  };
}

export const RESULT: RecordedResult = {
  modelValue: 'sent #42',
  truncated: true,
  summary: 'email sent',
  outputMappingResult: { id: 42, nested: [1, 'two'] },
};

/** Asserts a verdict is proceed and returns its effect id. */
export function proceedId(verdict: { verdict: string; effectId?: string | null }): string {
  if (verdict.verdict !== 'proceed' || !verdict.effectId) throw new Error(`expected proceed, got ${JSON.stringify(verdict)}`);
  return verdict.effectId;
}
