// The fast-check arbitrary of a whole trial: interleaved runs and sessions with awkward ids, activities and a crash schedule.
import fc from 'fast-check';
import { argsTemplate } from './arb-args.js';
import type { Activity, CallPlan, ClockJump, Features, KillPlan, NodePlan, RunPlan, Step, TrialCase, TurnPlan } from './case.js';

// Ids that share prefixes and hold characters meaning something to SQL patterns, paths, key separators and quoting.
const RUN_IDS = ['r', 'r1', 'r10', 'r_1', 'rx1', 'r%1', 'r%', 'r_', 'a:b', 'a', 'a/b', "o'k", 'q"1', 'ré', 're\u0301', 'r 1', '1', '01', 'run-中'];
const NODE_IDS = ['n', 'n1', 'n10', 'n_1', 'n%', 'b:c', 'c', 'b', 'c/d', 'n-é'];
const SESSION_IDS = ['s', 's1', 's10', 's_1', 'sx1', 's%', 's:1', 's/1', "s'1", 'sé'];
const TOOLS = ['http_request', 'write_file', 'payments.charge', 'kv_put', 'shell'];
const JUMPS: ClockJump[] = ['+3h', '+36h', '+9d', '+400d'];

const id = (pool: readonly string[]) => fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...pool) }, { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 5, unit: fc.constantFrom('a', 'b', '1', '_', '%', ':', '/', "'", 'é') }) });

const call = (slot: number): fc.Arbitrary<CallPlan> =>
  fc.record({
    slot: fc.constant(slot),
    toolId: fc.constantFrom(...TOOLS),
    tier: fc.constantFrom(1 as const, 2 as const, 3 as const, 3 as const),
    args: argsTemplate,
    padding: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(0, 12, 96) }, { weight: 2, arbitrary: fc.constantFrom(700, 5_000) }, { weight: 2, arbitrary: fc.constant(40_000) }),
    unicode: fc.boolean(),
    rerun: fc.constantFrom('same', 'reorder', 'rotate', 'reorder+rotate', 'reorder+rotate', 'reorder+rotate', 'public', 'public'),
    mutation: fc.nat(50),
  }) as fc.Arbitrary<CallPlan>;

// Slots: a zero-based ordinal, sometimes sparse so 10 sorts before 9 as text.
const slots = (n: number, sparse: boolean): number[] => Array.from({ length: n }, (_, i) => (sparse && i > 0 ? i + 9 : i));

const calls = fc.tuple(fc.integer({ min: 1, max: 4 }), fc.boolean()).chain(([n, sparse]) => fc.tuple(...slots(n, sparse).map(call)));

const node = (nodeId: string): fc.Arbitrary<NodePlan> =>
  fc.record({
    nodeId: fc.constant(nodeId),
    attempt: fc.constantFrom(1, 1, 2, 3),
    calls,
    mapping: fc.record({ field: fc.constantFrom('tail', 'receipt', 'padding', 'note', 'missing'), bound: fc.constantFrom(0, 8, 48, 300, 5_000, 5_000, 50_000, 50_000) }),
    rerun: fc.record({ dropFirst: fc.constantFrom(false, false, false, false, true), mapping: fc.constantFrom('same', 'same', 'reorder', 'changed', 'changed') }),
    retain: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    timeoutSlot: fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(0, 1, 10) }),
  }) as fc.Arbitrary<NodePlan>;

const run = (runId: string): fc.Arbitrary<RunPlan> =>
  fc.uniqueArray(id(NODE_IDS), { minLength: 1, maxLength: 2 }).chain((nodeIds) => fc.tuple(...nodeIds.map(node)).map((nodes) => ({ runId, nodes })));

// Most calls of a turn commit; some are left prepared, time out (ambiguous) or settle only later (a turn still running).
const fate = fc.constantFrom('commit', 'commit', 'commit', 'commit', 'commit', 'unsettled', 'timeout', 'deferred');

const turn: fc.Arbitrary<TurnPlan> = fc
  .record({
    n: fc.integer({ min: 1, max: 3 }),
    bang: fc.constantFrom(false, false, true),
    status: fc.constantFrom('completed', 'completed', 'completed', 'errored', 'aborted', 'missing_terminal', 'orphan'),
    compacted: fc.boolean(),
    anomaly: fc.constantFrom('none', 'none', 'none', 'duplicate', 'rename', 'legacy'),
    gap: fc.constantFrom(1, 1, 1, 9),
  })
  .chain((t) => {
    const ss = [...slots(t.n, false), ...(t.bang ? [-1] : [])];
    return fc.tuple(fc.tuple(...ss.map(call)), fc.tuple(...ss.map(() => fate))).map(([cs, fates]): TurnPlan => {
      const where = (f: string) => ss.filter((_, i) => fates[i] === f);
      return { calls: cs, status: t.status, compacted: t.compacted, anomaly: t.anomaly, gap: t.gap, unsettled: where('unsettled'), timeouts: where('timeout'), deferred: where('deferred') };
    });
  });

const jump = (f: Features) => (f.faketime ? fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...JUMPS) }) : fc.constant(null));

// The protocol boundaries an activity passes: the crash matrix's points of a run or a session turn, and those of recovery.
const RUN_BOUNDARIES = ['after-settle', 'after-settle', 'after-tool-result', 'after-tool-result', 'after-dispatch', 'after-prepare', 'after-node-completed', 'after-run-terminal'];
const SESSION_BOUNDARIES = ['after-turn-prepare', 'after-turn-dispatch', 'after-turn-settle', 'after-session-read', 'after-session-notice', 'after-session-notice', 'after-session-sweep'];
const RECOVERY_BOUNDARIES = ['after-gate', 'after-reconcile', 'after-reconcile-dispatch', 'after-settle', 'after-prepare', 'after-run-terminal', 'after-session-notice', 'after-session-read'];

// The announced points an activity passes (when the implementation announces them).
const RUN_POINTS = ['prepare.before-commit', 'prepare.after-commit', 'settle.before-commit', 'settle.after-commit', 'run-sweep.before-commit'];
const SESSION_POINTS = ['prepare.before-commit', 'settle.after-commit', 'session-sweep.before-commit', 'session-sweep.between-chunks', 'session-sweep.after-commit'];

const killAt = (f: Features, boundaries: readonly string[], then: fc.Arbitrary<KillPlan | null>): fc.Arbitrary<KillPlan> => {
  const wanted = boundaries === SESSION_BOUNDARIES ? SESSION_POINTS : RUN_POINTS;
  const points = f.points.filter((p) => wanted.includes(p));
  return fc.oneof(
    ...(points.length > 0 ? [{ weight: 3, arbitrary: fc.record({ via: fc.constant('point' as const), point: fc.constantFrom(...points), occurrence: fc.constantFrom(1, 1, 2), jump: jump(f), then }) }] : []),
    { weight: 6, arbitrary: fc.record({ via: fc.constant('boundary' as const), boundary: fc.constantFrom(...boundaries), occurrence: fc.constantFrom(1, 1, 1, 2, 3), jump: jump(f), then }) },
    { weight: 3, arbitrary: fc.record({ via: fc.constant('opportunity' as const), at: fc.integer({ min: 1, max: 30 }), jump: jump(f), then }) },
    ...(f.strace ? [{ weight: 1, arbitrary: fc.record({ via: fc.constant('syscall' as const), syscall: fc.constantFrom('pwrite64' as const, 'pwrite64' as const, 'fdatasync' as const), n: fc.integer({ min: 1, max: 40 }), jump: jump(f), then }) }] : []),
  );
};

// A second kill during the recovery a kill causes, now and then.
const recoveryKill = (f: Features): fc.Arbitrary<KillPlan | null> => fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: killAt(f, RECOVERY_BOUNDARIES, fc.constant(null)) });

// A kill, sometimes followed by a second one during the recovery it causes.
const killPlan = (f: Features, boundaries: readonly string[]): fc.Arbitrary<KillPlan> => killAt(f, boundaries, recoveryKill(f));

// Runs are killed most often (the crash matrix's home), turns and resumes often, the rest now and then.
const KILL_ODDS: Partial<Record<Activity['kind'], number>> = { turn: 0.35, resume: 0.35, 'race-resume': 0.25, resolve: 0.25, 'sweep-later': 0.25, 'finish-turns': 0.25 };

function step(f: Features): fc.Arbitrary<Step> {
  return activity(f).chain((act) => {
    const odds = KILL_ODDS[act.kind] ?? (act.kind === 'run' ? 0.3 : 0.08);
    const boundaries = act.kind === 'run' || act.kind === 'resolve' ? RUN_BOUNDARIES : act.kind === 'regate' ? RECOVERY_BOUNDARIES : SESSION_BOUNDARIES;
    return fc.record({ act: fc.constant(act), kill: fc.integer({ min: 0, max: 99 }).chain((roll) => (roll < odds * 100 ? killPlan(f, boundaries) : fc.constant(null))) });
  });
}

/** Every activity the features allow; references to runs and sessions are indices taken modulo what exists. */
function activity(f: Features): fc.Arbitrary<Activity> {
  const r = fc.nat(3);
  const s = fc.nat(2);
  const options: Array<{ weight: number; arbitrary: fc.Arbitrary<Activity> }> = [
    { weight: 9, arbitrary: r.map((run) => ({ kind: 'run' as const, run })) },
    { weight: 2, arbitrary: r.map((run) => ({ kind: 'regate' as const, run })) },
    { weight: 1, arbitrary: r.map((run) => ({ kind: 'resolve' as const, run })) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('race-prepare' as const), attempts: fc.integer({ min: 2, max: 6 }), delays: fc.array(fc.constantFrom(0, 0, 0, 1), { minLength: 6, maxLength: 6 }), settle: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('probe-settle' as const), which: fc.constantFrom('unknown' as const, 'again' as const) }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'checkpoint' as const }) },
    { weight: 1, arbitrary: jump(f).map((j) => ({ kind: 'restart' as const, jump: j })) },
  ];
  if (f.sessions) {
    options.push(
      { weight: 6, arbitrary: fc.record({ kind: fc.constant('turn' as const), session: s, turn }) },
      { weight: 2, arbitrary: fc.constant({ kind: 'finish-turns' as const }) },
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('resume' as const), session: s, noticeFails: fc.constantFrom(false, false, false, true), deferSweep: fc.constantFrom(false, false, true), chunkSize: fc.constantFrom(null, 1, 2) }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'sweep-later' as const }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('repeat-turn' as const), session: s, pick: fc.nat(5) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('race-resume' as const), session: s }) },
    );
    if (f.outerTransactionProbe) options.push({ weight: 1, arbitrary: fc.record({ kind: fc.constant('outer-sweep' as const), session: s }) });
  }
  if (f.seeding) options.push({ weight: 1, arbitrary: fc.record({ kind: fc.constant('seed' as const), run: r, session: s, digest: fc.constantFrom('unversioned' as const, 'v4' as const) }) });
  if (f.points.includes('prepare.before-commit')) options.push({ weight: 1, arbitrary: fc.constant({ kind: 'race-held' as const }) });
  return fc.oneof(...options);
}

/** The arbitrary of one trial for an implementation with these features. */
export function trialCase(f: Features): fc.Arbitrary<TrialCase> {
  const runs = fc.uniqueArray(id(RUN_IDS), { minLength: 1, maxLength: 3 }).chain((ids) => fc.tuple(...ids.map(run)));
  return fc
    .record({
      runs,
      sessions: f.sessions ? fc.uniqueArray(id(SESSION_IDS), { minLength: 1, maxLength: 2 }) : fc.constant([]),
      extras: fc.array(step(f), { maxLength: 6 }),
      // Faults are cheap (no extra driver) and each disturbs a different path: several per trial.
      faults: fc.array(faultStep(f), { maxLength: f.faults.length === 0 ? 0 : 3 }),
      // A legacy writer's rows (when the journal can plant them): in half the trials.
      legacy: f.seeding ? fc.option(fc.record({ kind: fc.constant('seed' as const), run: fc.nat(3), session: fc.nat(2), digest: fc.constantFrom('unversioned' as const, 'v4' as const) }), { nil: null }) : fc.constant(null),
      turns: f.sessions ? fc.array(fc.record({ session: fc.nat(2), turn, resume: fc.boolean() }), { maxLength: 3 }) : fc.constant<Array<{ session: number; turn: TurnPlan; resume: boolean }>>([]),
      order: fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
    })
    .chain(({ runs: rs, sessions, extras, faults, legacy, turns: ts, order }) => {
      // Every run starts once (most of them killed somewhere in it), every planned turn happens; extras go in between.
      const runSteps = rs.map((plan, i) => runStep(f, i, plan));
      const turnSteps = ts.map((x) => sessionSteps(f, x.session, x.turn, x.resume));
      return fc.tuple(fc.tuple(...runSteps), fc.tuple(...turnSteps)).map(([rSteps, tSteps]): TrialCase => ({
        runs: rs,
        sessions,
        steps: interleave([(rSteps as unknown as Step[][]).flat(), ...(tSteps as Step[][]), ...[...extras, ...faults, ...(legacy === null ? [] : [{ act: legacy, kill: null }])].map((e) => [e])], order),
      }));
    });
}

// A run is mostly killed inside a node with k of its calls done: after a settle or tool result a re-run must replay
// or refuse; after a prepare or dispatch the gate must refuse (or reconcile) although earlier calls committed.
// Now and then an operator then resolves what needs attention.
function runStep(f: Features, run: number, plan: RunPlan): fc.Arbitrary<Step[]> {
  const calls = plan.nodes.reduce((n, node) => n + node.calls.length, 0);
  const window = fc.record({ via: fc.constant('boundary' as const), boundary: fc.constantFrom('after-settle', 'after-tool-result', 'after-tool-result', 'after-dispatch', 'after-prepare'), occurrence: fc.integer({ min: 1, max: Math.max(1, calls) }), jump: jump(f), then: recoveryKill(f) });
  const kill = fc.oneof({ weight: 5, arbitrary: window }, { weight: 3, arbitrary: killPlan(f, RUN_BOUNDARIES) }, { weight: 1, arbitrary: fc.constant(null) });
  return fc.tuple(kill, fc.integer({ min: 0, max: 3 })).map(([k, roll]): Step[] => [{ act: { kind: 'run', run }, kill: k }, ...(roll === 0 ? [{ act: { kind: 'resolve' as const, run }, kill: null }] : [])]);
}

function faultStep(f: Features): fc.Arbitrary<Step> {
  const faults = f.faults.filter((x) => f.sessions || (x !== 'session_read_fails' && x !== 'sweep_fails_after_first_chunk'));
  if (faults.length === 0) return fc.constant({ act: { kind: 'checkpoint' as const }, kill: null });
  return fc.record({ act: fc.record({ kind: fc.constant('fault' as const), fault: fc.constantFrom(...faults), run: fc.nat(3), session: fc.nat(2) }), kill: fc.constant(null) });
}

// A turn, often followed by a resume; a turn still running (deferred calls) races the resume: read, then the late
// commits, then the sweep of what the read captured.
function sessionSteps(f: Features, session: number, t: TurnPlan, resume: boolean): fc.Arbitrary<Step[]> {
  const kill = fc.oneof({ weight: 3, arbitrary: killPlan(f, SESSION_BOUNDARIES) }, { weight: 7, arbitrary: fc.constant(null) });
  const turnStep = kill.map((k): Step => ({ act: { kind: 'turn', session, turn: t }, kill: k }));
  if (!resume) return fc.tuple(turnStep);
  const racing = t.deferred.length > 0;
  const resumeStep = fc.tuple(kill, fc.constantFrom(false, false, false, true)).map(([k, noticeFails]): Step => ({ act: { kind: 'resume', session, noticeFails: noticeFails && !racing, deferSweep: racing, chunkSize: null }, kill: k }));
  if (!racing) return fc.tuple(turnStep, resumeStep);
  return fc.tuple(turnStep, resumeStep, kill.map((k): Step => ({ act: { kind: 'finish-turns' }, kill: k })), kill.map((k): Step => ({ act: { kind: 'sweep-later' }, kill: k })));
}

// Merges groups of steps (each group keeps its own order) in an order the `order` numbers decide.
function interleave(groups: Step[][], order: readonly number[]): Step[] {
  const queues = groups.filter((g) => g.length > 0).map((g) => [...g]);
  const out: Step[] = [];
  for (let i = 0; queues.some((q) => q.length > 0); i++) {
    const live = queues.filter((q) => q.length > 0);
    out.push(live[(order[i % order.length] ?? 0) % live.length]!.shift()!);
  }
  return out;
}
