// `ejc vectors`: each §11 test vector prepared by a journal through the protocol, its persisted digest compared to the file's.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createTrialDir } from '../trial-dir.js';
import { startDriver } from '../driver/start-driver.js';
import { EjcError } from '../../shared/errors.js';
import { driverEnvFor } from '../reference-env.js';
import { resolveForSpawn } from '../implementation.js';
import type { Launch } from '../../reports/schema.js';
import type { DriverHandle } from '../driver/types.js';
import type { DigestVectorEntry } from './vector-file.js';

/** What one vector came to: the expected digest and canonical JSON beside the journal's digest and (when it exposes it) projection. */
export interface VectorOutcome {
  readonly name: string;
  readonly covers: string;
  readonly expectedDigest: string;
  readonly expectedCanonical: string;
  /** The argsDigest of the row the journal persisted, lower-cased; null when it persisted none. */
  readonly actualDigest: string | null;
  /** The journal's own canonical projection (`argsProjection`), or null when it does not answer that operation. */
  readonly actualCanonical: string | null;
  /** Why there is no row: the journal's error or refusal, in its own words. */
  readonly error: string | null;
  readonly passed: boolean;
  /** The other readings the contract allows, each with its digest (any of them matches). */
  readonly alternatives: ReadonlyArray<{ readonly choice: string; readonly digest: string }>;
  /** The other allowed reading the journal's digest matched (its `choice`), or null when it matched the vector's own. */
  readonly reading: string | null;
}

export interface VectorCheck {
  readonly implementation: { readonly name: string; readonly version: string };
  readonly outcomes: VectorOutcome[];
}

/** Opens the journal in a fresh directory, prepares every vector as its own effect, and reads the rows back. */
export async function checkVectors(options: { launch: Launch; timeoutMs: number; vectors: readonly DigestVectorEntry[] }): Promise<VectorCheck> {
  // Registered like a trial's directory, so Ctrl-C during the check removes it too.
  const tmp = await createTrialDir();
  let handle: DriverHandle | null = null;
  try {
    handle = await startDriver(resolveForSpawn(options.launch), { label: 'vectors', cwd: tmp.path, timeoutMs: options.timeoutMs, env: driverEnvFor(options.launch) });
    const journalDir = join(tmp.path, 'journal');
    await mkdir(journalDir);
    const opened = await handle.call('open', { dir: journalDir, armedCrashPoints: [] });
    if (opened.kind !== 'result') throw new EjcError('driver_start_failed', `vectors: the journal did not open (${opened.kind === 'error' ? `${opened.code}: ${opened.message}` : opened.kind})`);
    const prepared = await prepareAll(handle, options.vectors);
    const listed = await handle.call('listEffects', {});
    if (listed.kind !== 'result') throw new EjcError('driver_start_failed', `vectors: listEffects failed (${listed.kind === 'error' ? `${listed.code}: ${listed.message}` : listed.kind})`);
    const digests = new Map(listed.result.effects.map((r) => [r.effectId, r.argsDigest.toLowerCase()]));
    const exposes = handle.hello.capabilities.argsProjection === true;
    const outcomes: VectorOutcome[] = [];
    for (const [i, v] of options.vectors.entries()) {
      const p = prepared[i]!;
      const actualDigest = p.effectId === null ? null : (digests.get(p.effectId) ?? null);
      const actualCanonical = exposes ? await projectionOf(handle, v) : null;
      const reading = v.alternatives?.find((a) => a.digest === actualDigest);
      outcomes.push({
        name: v.name, covers: v.covers, expectedDigest: v.digest, expectedCanonical: v.canonical, actualDigest, actualCanonical,
        error: p.error ?? (p.effectId !== null && actualDigest === null ? `effect ${p.effectId} is missing from listEffects` : null),
        passed: actualDigest === v.digest || reading !== undefined,
        reading: actualDigest === v.digest ? null : (reading?.choice ?? null),
        alternatives: (v.alternatives ?? []).map((a) => ({ choice: a.choice, digest: a.digest })),
      });
    }
    return { implementation: { name: handle.hello.name, version: handle.hello.version }, outcomes };
  } finally {
    if (handle !== null) await handle.close();
    await tmp.cleanup();
  }
}

async function prepareAll(handle: DriverHandle, vectors: readonly DigestVectorEntry[]): Promise<Array<{ effectId: string | null; error: string | null }>> {
  const out: Array<{ effectId: string | null; error: string | null }> = [];
  for (const [i, v] of vectors.entries()) {
    const answer = await handle.call('prepare', {
      correlation: { kind: 'run', runId: 'ejc-vectors', nodeId: `vector-${i + 1}`, attempt: 1 },
      slot: 0, toolId: 'http_request', tier: 3, args: v.args as Record<string, never>, secretArgKeys: [...v.secretArgKeys],
      audit: { providerAttempt: 0, callId: `ejc-vector-${i + 1}`, ownerId: 'ejc-vectors', generation: 0 },
    });
    if (answer.kind === 'error') out.push({ effectId: null, error: `prepare answered ${answer.code}: ${answer.message}` });
    else if (answer.kind !== 'result') out.push({ effectId: null, error: `prepare announced crash point ${answer.point}` });
    else if (answer.result.verdict !== 'proceed') out.push({ effectId: null, error: `prepare answered ${answer.result.verdict}${answer.result.verdict === 'refuse' ? ` (${answer.result.code}: ${answer.result.message})` : ''}` });
    else out.push({ effectId: answer.result.effectId, error: null });
  }
  return out;
}

async function projectionOf(handle: DriverHandle, v: DigestVectorEntry): Promise<string | null> {
  const answer = await handle.call('argsProjection', { args: v.args as Record<string, never>, secretArgKeys: [...v.secretArgKeys] });
  return answer.kind === 'result' ? answer.result.canonical : null;
}
