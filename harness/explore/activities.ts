// The activities of a generated trial, each what an engine (or an operator, or a second process) would really do.
import { setTimeout as sleep } from 'node:timers/promises';
import { continueRun, gateEveryNode, startRun } from '../engine/run-engine.js';
import { nodePrepare } from '../engine/node-prepare.js';
import { DEFAULT_MAPPING } from '../engine/projections.js';
import { resumeSession, startTurn, transcriptOf, type OpenTurn } from '../engine/session-engine.js';
import type { OpParams } from '../../shared/protocol/schemas.js';
import { logicalKey, scopeKey, sessionScopeKey } from '../engine/model.js';
import { buildCall } from './build.js';
import { kxmRun } from '../kxm/explore-activity.js';
import type { Activity, TurnPlan } from './case.js';
import type { Exec } from './execute.js';
import { raceHeld, racePrepare, raceResume } from './races.js';
import { longLived } from './long-lived.js';

/** Performs one activity on the trial's primary driver; a planned kill unwinds out of it as CrashInjected. */
export async function runActivity(x: Exec, a: Activity): Promise<void> {
  const t = x.t;
  switch (a.kind) {
    case 'run': {
      const i = a.run % x.runs.length;
      if (x.started.has(i)) return regate(x, i);
      x.started.add(i);
      t.note({ kind: 'note', text: `run ${JSON.stringify(x.runs[i]!.runId)} starts${a.pause === undefined ? '' : ` (it pauses after ${a.pause} node(s))`}${a.fault ? ` with the fault ${a.fault} on` : ''}` });
      const faulted = a.fault !== undefined && (await x.primary.try('fault', { fault: a.fault, enabled: true })).ok;
      const driver = x.primary;
      await startRun(t, x.primary, x.runs[i]!, a.pause === undefined ? {} : { pauseAfter: a.pause });
      if (faulted && a.fault === 'checkpoint_blocked_by_reader') {
        // The run's terminal freed its results while a reader held the WAL: a checkpoint must not claim them gone.
        x.scan();
        await x.primary.op('checkpoint', {});
        x.scan();
      }
      if (faulted && x.primary === driver) await x.primary.try('fault', { fault: a.fault!, enabled: false });
      return;
    }
    case 'run-rest': {
      const i = a.run % x.runs.length;
      const run = x.runs[i]!;
      if (!x.started.has(i) || t.log.ended(run.runId)) return;
      await duplicateWorker(x, i);
      t.note({ kind: 'note', text: `run ${JSON.stringify(run.runId)} continues` });
      await continueRun(t, x.primary, run);
      return;
    }
    case 'regate':
      return regate(x, a.run % x.runs.length);
    case 'resolve':
      return resolve(x, a.run % x.runs.length);
    case 'resolve-session':
      return resolveSession(x, a.session);
    case 'turn':
      await turn(x, a.session, a.turn);
      return;
    case 'turn-race': {
      const s = x.session(a.session);
      if (!s) return;
      const open = await turn(x, a.session, a.turn, true);
      const out = await resumeSession(t, x.primary, s.id, { deferSweep: true });
      if (open) await open.finish(x.primary);
      await out.sweepLater?.(x.primary);
      return;
    }
    case 'finish-turns': {
      const mine = x.openTurns.filter((o) => o.driver === x.primary);
      x.openTurns = x.openTurns.filter((o) => o.driver !== x.primary);
      for (const o of mine) await o.turn.finish(x.primary);
      return;
    }
    case 'resume': {
      const s = x.session(a.session);
      if (!s) return;
      const out = await resumeSession(t, x.primary, s.id, { noticeFails: a.noticeFails, deferSweep: a.deferSweep });
      if (out.sweepLater) x.laterSweeps.push({ driver: x.primary, sweep: out.sweepLater });
      return;
    }
    case 'sweep-later': {
      const mine = x.laterSweeps.filter((s) => s.driver === x.primary);
      x.laterSweeps = x.laterSweeps.filter((s) => s.driver !== x.primary);
      for (const s of mine) await s.sweep(x.primary);
      return;
    }
    case 'repeat-turn': {
      const s = x.session(a.session);
      // pick 99 means the latest turn; others pick among all of them.
      const earlier = a.pick === 99 ? s?.turns.at(-1) : s?.turns[a.pick % Math.max(1, s.turns.length)];
      // The same identity prepared again (an older process, a repeated message): always refused, never replayed.
      for (const p of earlier?.prepares ?? []) await x.primary.op('prepare', p as OpParams<'prepare'>);
      return;
    }
    case 'race-prepare':
      return racePrepare(x, a);
    case 'race-resume':
      return raceResume(x, a.session);
    case 'race-held':
      return raceHeld(x);
    case 'long-lived':
      return longLived(x, a);
    case 'fault':
      return faulted(x, a);
    case 'probe-settle':
      return probeSettle(x, a.which);
    case 'seed':
      return seed(x, a);
    case 'outer-sweep': {
      const s = x.session(a.session);
      if (!s) return;
      const read = await x.primary.try('sessionRead', { sessionId: s.id, transcript: transcriptOf(t, s.id) });
      if (read.ok) await x.primary.try('sessionSweep', { sessionId: s.id, captured: read.result.captured, insideOuterTransaction: true });
      return;
    }
    case 'checkpoint':
      await x.primary.op('checkpoint', {});
      return;
    case 'restart':
      return restart(x, a.jump);
    case 'kxm':
      return kxmRun(x, `kxm-${x.t.seed.toString(36)}-${x.kxmRuns.size + 1}`, a.plan);
  }
}

// A second worker re-runs the paused run's finished nodes (a lost lease, a retried job): every prepare it sends must be
// answered from the record, replayed for the same call and refused for a changed one; nothing is dispatched.
async function duplicateWorker(x: Exec, i: number): Promise<void> {
  const again = x.nextRerun(i);
  const done = x.t.log.completedNodes(again.runId);
  x.t.note({ kind: 'note', text: `a duplicate worker re-prepares the finished nodes of run ${JSON.stringify(again.runId)}` });
  for (const node of again.nodes.filter((n) => done.has(n.nodeId))) {
    const mapping = node.rerunMapping ?? node.mapping ?? DEFAULT_MAPPING;
    for (const call of node.rerunCalls ?? node.calls) await x.primary.op('prepare', nodePrepare(x.t, again.runId, node.nodeId, call, { attempt: 1, mapping, owner: 'engine-duplicate-worker', generation: 0 }));
  }
}

// An operator resolves a session's unresolved rows as a run's (accepted where the target shows the write, else
// discarded), then the session resumes: what a read discloses and captures of a resolved row, and what its sweep then
// removes, is the model's to judge (an accepted row may be captured and swept, a discarded one never).
async function resolveSession(x: Exec, index: number): Promise<void> {
  const s = x.session(index);
  if (!s || !x.features.resolution) return;
  const { effects } = await x.primary.op('listEffects', {});
  const mine = effects.filter((e) => e.scope.kind === 'session' && e.scope.sessionId === s.id && e.state !== 'committed' && e.resolution === null);
  if (mine.length === 0) return;
  for (const e of mine) {
    const landed = e.scope.kind === 'session' && x.t.world.writesFor(logicalKey(sessionScopeKey(e.scope.sessionId, e.scope.turn), e)) > 0;
    await x.primary.try('resolve', { effectId: e.effectId, decision: landed ? 'accepted' : 'discarded', actor: 'operator@explore.invalid' });
  }
  const out = await resumeSession(x.t, x.primary, s.id, {});
  await out.sweepLater?.(x.primary);
}

// The gate of every node of a run, as a later resume's pre-flight would read it (terminal runs included: it must still refuse).
async function regate(x: Exec, i: number): Promise<void> {
  await gateEveryNode(x.primary, x.runs[i]!);
}

// An operator checks each target and resolves what needs attention truthfully. The run is terminal by then (its gate
// refused), so nothing re-runs: the gate must now pass, and a discarded identity may be prepared again (§8).
async function resolve(x: Exec, i: number): Promise<void> {
  // Unclaimed resolution is a follow-up the journal may not have (capabilities.resolution): the step stays, a no-op.
  if (!x.started.has(i) || !x.features.resolution) return;
  const run = x.runs[i]!;
  const { effects } = await x.primary.op('listEffects', {});
  const mine = effects.filter((e) => e.scope.kind === 'run' && e.scope.runId === run.runId && e.state === 'needs_attention' && e.resolution === null);
  const discarded: typeof mine = [];
  for (const e of mine) {
    const landed = e.scope.kind === 'run' && x.t.world.writesFor(logicalKey(scopeKey(e.scope.runId, e.scope.nodeId), e)) > 0;
    const r = await x.primary.try('resolve', { effectId: e.effectId, decision: landed ? 'accepted' : 'discarded', actor: 'operator@explore.invalid' });
    if (r.ok && !landed) discarded.push(e);
  }
  if (mine.length === 0) return;
  await regate(x, i);
  for (const e of discarded) {
    const node = run.nodes.find((n) => e.scope.kind === 'run' && n.nodeId === e.scope.nodeId);
    const call = node?.calls.find((c) => c.slot === e.slot && c.toolId === e.toolId);
    if (!node || !call) continue;
    await x.primary.op('prepare', nodePrepare(x.t, run.runId, node.nodeId, call, { attempt: 1, mapping: node.mapping ?? DEFAULT_MAPPING, owner: 'engine-operator', generation: 0 }));
  }
}

async function turn(x: Exec, index: number, plan: TurnPlan, keepOpen = false): Promise<OpenTurn | null> {
  const s = x.session(index);
  if (!s) return null;
  const turnNo = s.nextTurn;
  s.nextTurn += plan.gap;
  const built = plan.calls.map((c) => buildCall(c, x.book, 'session-result'));
  const callIds: Record<number, string> = {};
  for (const b of built) callIds[b.call.slot] = `eng-${s.turns.length}-${b.call.slot}-${x.t.rng.int(1_000_000)}`;
  if (plan.anomaly === 'legacy' && built[0]) callIds[built[0].call.slot] = 'legacy:session';
  const script = {
    turn: turnNo,
    calls: built.map((b) => b.call),
    status: plan.status,
    compacted: plan.compacted,
    unsettledSlots: plan.unsettled,
    timeoutSlots: plan.timeouts,
    deferredSlots: plan.deferred,
    callIds,
  };
  const prepares = built.map((b) => ({
    correlation: { kind: 'session' as const, sessionId: s.id, turn: turnNo },
    slot: b.call.slot, toolId: b.call.toolId, tier: b.call.tier, args: b.call.args, secretArgKeys: [...b.call.secretArgKeys],
    audit: { providerAttempt: 1, callId: `repeat-${callIds[b.call.slot]}`, ownerId: 'engine-repeat', generation: 0 },
  }));
  s.turns.push({ turn: turnNo, prepares, callIds: Object.values(callIds) });
  const open = await startTurn(x.t, x.primary, s.id, script);
  anomaly(x, s.id, turnNo, plan, built.map((b) => ({ callId: callIds[b.call.slot]!, toolId: b.call.toolId })));
  if (keepOpen) return open;
  if (plan.deferred.length > 0) x.openTurns.push({ driver: x.primary, turn: open });
  else await open.finish(x.primary);
  return null;
}

// Attribution anomalies in the transcript history: a call id seen twice, or recorded under another tool's name.
function anomaly(x: Exec, sessionId: string, turnNo: number, plan: TurnPlan, calls: Array<{ callId: string; toolId: string }>): void {
  const first = calls[0];
  if (!first || (plan.anomaly !== 'duplicate' && plan.anomaly !== 'rename')) return;
  const toolName = plan.anomaly === 'rename' ? `${first.toolId}.renamed` : first.toolId;
  x.t.log.append({ type: 'session:turn', sessionId, turn: turnNo, status: 'completed', compacted: false, calls: [{ callId: first.callId, toolName }] });
}

// A fault on around what it disturbs: settles of a run, a gate, a session read or sweep, a checkpoint with a reader holding the WAL.
async function faulted(x: Exec, a: Extract<Activity, { kind: 'fault' }>): Promise<void> {
  const on = await x.primary.try('fault', { fault: a.fault, enabled: true });
  if (!on.ok) return;
  const driver = x.primary;
  const i = a.run % x.runs.length;
  switch (a.fault) {
    case 'settle_write_fails':
      // Settles fail while it is on: a probe settle of a fresh prepare shows the row stays prepared.
      await probeFailingSettle(x);
      break;
    case 'checkpoint_blocked_by_reader': {
      // A legacy result freed while a reader holds the WAL: the checkpoint must not claim its bytes gone.
      if (x.features.seeding) await seed(x, { kind: 'seed', run: -1, session: a.session, digest: 'v4' });
      await runActivity(x, { kind: 'resume', session: a.session, noticeFails: false, deferSweep: false });
      x.scan();
      await x.primary.op('checkpoint', {});
      x.scan();
      break;
    }
    case 'gate_read_fails':
      await regate(x, i);
      break;
    case 'session_read_fails':
      await runActivity(x, { kind: 'resume', session: a.session, noticeFails: false, deferSweep: false });
      break;
    case 'sweep_fails_after_first_chunk':
      await runActivity(x, { kind: 'resume', session: a.session, noticeFails: false, deferSweep: false });
      break;
  }
  // A kill inside the disturbed activity ended the fault with its process.
  if (x.primary === driver) await x.primary.try('fault', { fault: a.fault, enabled: false });
}

// With settle_write_fails on: a fresh prepare, a settle that fails, the gate that then refuses.
async function probeFailingSettle(x: Exec): Promise<void> {
  const runId = `settle-fails-${x.t.seed.toString(36)}-${++x.raceCount}`;
  const v = await x.primary.op('prepare', {
    correlation: { kind: 'run', runId, nodeId: 'n', attempt: 1 }, slot: 0, toolId: 'http_request', tier: 3, args: { n: x.raceCount }, secretArgKeys: [],
    outputMappingConfig: { ...DEFAULT_MAPPING }, audit: { providerAttempt: 1, callId: x.t.rng.id('call'), ownerId: 'engine-probe', generation: 0 },
  });
  if (v.verdict !== 'proceed') return;
  await x.primary.try('settle', { effectId: v.effectId, state: 'committed', result: { modelValue: 'v', truncated: false, summary: 's', outputMappingResult: null } });
  await x.primary.op('gate', { scope: { kind: 'run', runId, nodeId: 'n' }, attempt: 1 });
}

async function probeSettle(x: Exec, which: 'unknown' | 'again'): Promise<void> {
  if (which === 'unknown') {
    await x.primary.try('settle', { effectId: '987654321', state: 'ambiguous', reason: 'probe: no such row' });
    return;
  }
  const { effects } = await x.primary.op('listEffects', {});
  // A timed-out call whose answer comes late (ambiguous → committed is tier 2 reconciliation's alone, §6), else a second settle.
  const late = effects.find((e) => e.state === 'ambiguous');
  if (late) return void (await x.primary.try('settle', { effectId: late.effectId, state: 'committed', result: { modelValue: 'probe: a late answer', truncated: false, summary: 'late', outputMappingResult: null } }));
  const settled = effects.find((e) => e.state === 'committed');
  if (settled) await x.primary.try('settle', { effectId: settled.effectId, state: 'ambiguous', reason: 'probe: settled twice' });
}

// A legacy writer's rows: a legacy digest at a run's first identity (before it runs), a session row holding a result.
async function seed(x: Exec, a: Extract<Activity, { kind: 'seed' }>): Promise<void> {
  const i = a.run < 0 ? -1 : a.run % x.runs.length;
  const rows: OpParams<'seed'>['rows'] = [];
  const run = x.runs[Math.max(0, i)]!;
  // The legacy row takes the run's last node, so the nodes before it still run (and crash, and replay) as usual.
  const node = run.nodes.at(-1)!;
  const first = node.calls[0];
  if (i >= 0 && !x.started.has(i) && first && !x.seededRuns.has(i)) {
    x.seededRuns.add(i);
    const digest = a.digest === 'v4' ? `v4:${'0'.repeat(64)}` : 'f'.repeat(64);
    rows.push({ scope: { kind: 'run', runId: run.runId, nodeId: node.nodeId }, slot: first.slot, toolId: first.toolId, tier: 3, state: 'committed', argsDigest: digest, callId: 'legacy-run-call', resultJson: null });
  }
  const s = x.session(a.session);
  if (s) {
    const marker = x.book.make('legacy-result');
    rows.push({ scope: { kind: 'session', sessionId: s.id, turn: 1000 + x.seeded++ }, slot: 0, toolId: 'http_request', tier: 3, state: 'committed', argsDigest: 'v3:legacy', callId: 'legacy:session', resultJson: JSON.stringify({ modelValue: marker, truncated: false, summary: 'legacy', outputMappingResult: null }) });
  }
  if (rows.length > 0) await x.primary.try('seed', { rows });
}

// A graceful restart (maybe after a long outage): the process ends, so its deferred work never happens.
async function restart(x: Exec, jump: Parameters<Exec['clock']['jump']>[0]): Promise<void> {
  x.clock.jump(jump);
  await x.restartPrimary();
}

/** A short pause before the second request of a race (0: both in the same tick). */
export async function stagger(ms: number): Promise<void> {
  if (ms > 0) await sleep(ms);
}
