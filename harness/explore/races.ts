// A second driver racing the first on the same files: repeated prepares of one identity, concurrent resumes, a killed holder.
import { CrashInjected } from '../engine/crash-plan.js';
import type { JournalClient } from '../engine/journal-client.js';
import { resumeSession } from '../engine/session-engine.js';
import type { OpParams } from '../../shared/protocol/schemas.js';
import { DEFAULT_MAPPING } from '../engine/projections.js';
import { stagger } from './activities.js';
import type { Activity } from './case.js';
import type { Exec } from './execute.js';

/** Both drivers idle, then the same prepare written to both in one tick (or a millisecond apart), `attempts` times over. */
export async function racePrepare(x: Exec, a: Extract<Activity, { kind: 'race-prepare' }>): Promise<void> {
  const rival = await x.ownDriver('rival', { journalDir: x.journalDir });
  const crashes: unknown[] = [];
  try {
    for (let k = 0; k < a.attempts && crashes.length === 0; k++) {
      const params = racePrepareParams(x, `race-${x.t.seed.toString(36)}-${++x.raceCount}`);
      const [pa, pb] = await Promise.allSettled([x.primary.try('prepare', params), stagger(a.delays[k] ?? 0).then(() => rival.try('prepare', params))]);
      for (const p of [pa, pb]) if (p.status === 'rejected') crashes.push(p.reason);
      const winner = [pa, pb].flatMap((p, i) => (p.status === 'fulfilled' && p.value.ok && p.value.result.verdict === 'proceed' ? [{ client: i === 0 ? x.primary : rival, effectId: p.value.result.effectId }] : []))[0];
      if (winner && a.settle && crashes.length === 0) await winner.client.op('settle', { effectId: winner.effectId, state: 'committed', result: { modelValue: 'race', truncated: false, summary: 'race', outputMappingResult: null } });
    }
  } finally {
    await closeQuietly(rival);
  }
  if (crashes.length > 0) throw crashes[0];
}

/** Two chat-resumes of one session at once: both may disclose, each captured row is swept once. */
export async function raceResume(x: Exec, index: number): Promise<void> {
  const s = x.session(index);
  if (!s) return;
  const rival = await x.ownDriver('rival', { journalDir: x.journalDir });
  const results = await Promise.allSettled([resumeSession(x.t, x.primary, s.id), resumeSession(x.t, rival, s.id)]);
  await closeQuietly(rival);
  const crash = results.find((r) => r.status === 'rejected');
  if (crash) throw crash.reason;
}

/** The primary stops inside its prepare (before the commit), the rival prepares the same identity, the primary is SIGKILLed. */
export async function raceHeld(x: Exec): Promise<void> {
  if (!x.features.points.includes('prepare.before-commit')) return;
  const rival = await x.ownDriver('rival', { journalDir: x.journalDir });
  const params = racePrepareParams(x, `held-${x.t.seed.toString(36)}-${++x.raceCount}`);
  const sent = x.t.tick();
  const held = await x.primary.holdAt('prepare', params, 'prepare.before-commit');
  if (held.kind !== 'crashpoint') {
    x.t.noteOp(x.primary, 'prepare', params, sent, held.kind === 'result' ? { kind: 'result', result: held.result } : { kind: 'error', code: held.code, message: held.message });
    await closeQuietly(rival);
    return;
  }
  const pending = rival.try('prepare', params);
  x.t.noteOp(x.primary, 'prepare', params, sent, { kind: 'killed', at: 'point:prepare.before-commit' });
  await x.t.kill(x.primary, 'point:prepare.before-commit');
  await pending;
  await closeQuietly(rival);
  throw new CrashInjected('point:prepare.before-commit');
}

function racePrepareParams(x: Exec, runId: string): OpParams<'prepare'> {
  return {
    correlation: { kind: 'run', runId, nodeId: 'n', attempt: 1 },
    slot: 0,
    toolId: 'http_request',
    tier: 3,
    args: { amount: x.raceCount, note: 'race' },
    secretArgKeys: [],
    outputMappingConfig: { ...DEFAULT_MAPPING },
    audit: { providerAttempt: 1, callId: x.t.rng.id('call'), ownerId: 'engine-race', generation: 0 },
  };
}

/** Closes a second driver; one that cannot close (the journal broke) is killed instead. */
export async function closeQuietly(client: JournalClient): Promise<void> {
  try {
    await client.close();
  } catch {
    await client.handle.kill();
  }
}
