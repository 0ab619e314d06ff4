// The fast-check arbitrary of a whole trial: interleaved runs and sessions with awkward ids, activities and a crash schedule.
import fc from 'fast-check';
import { argsTemplate } from './arb-args.js';
import type { Activity, CallPlan, ClockJump, Features, KillPlan, NodePlan, RunPlan, Step, TrialCase, TurnPlan } from './case.js';
import { KXM_BOUNDARIES, kxmPlan } from '../kxm/explore-activity.js';
import { sessionOperator, widen, widening, withSessionOperator } from './arb-widen.js';
import { dimensions, withDimensions } from './arb-dimensions.js';

// Ids that share prefixes and hold characters meaning something to SQL patterns, paths, key separators and quoting.
const RUN_IDS = ['r', 'r1', 'r10', 'r_1', 'rx1', 'r%1', 'r%', 'r_', 'a:b', 'a', 'a/b', "o'k", 'q"1', 'ré', 're\u0301', 'r 1', '1', '01', 'run-中'];
const NODE_IDS = ['n', 'n1', 'n10', 'n_1', 'n%', 'b:c', 'b/c', 'c', 'b', 'c/d', 'n-é'];
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
    rerun: fc.array(fc.constantFrom('same', 'reorder', 'rotate', 'reorder+rotate', 'reorder+rotate', 'reorder+rotate', 'public', 'public', 'public'), { minLength: 1, maxLength: 3 }),
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
    rerun: fc.record({ dropFirst: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }), mapping: fc.array(fc.constantFrom('same', 'same', 'reorder', 'changed', 'changed'), { minLength: 1, maxLength: 3 }) }),
    retain: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    timeoutSlot: fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(0, 1, 10) }),
  }) as fc.Arbitrary<NodePlan>;

const run = (runId: string, nodeIds: fc.Arbitrary<string[]> = fc.uniqueArray(id(NODE_IDS), { minLength: 1, maxLength: 2 })): fc.Arbitrary<RunPlan> =>
  nodeIds.chain((ids) => fc.tuple(...ids.map(node)).map((nodes) => ({ runId, nodes })));

// Run ids that one careless scheme takes for each other: a prefix with LIKE wildcards, a '/' joined scope key.
const ID_FAMILIES: ReadonlyArray<readonly string[]> = [['r%', 'r1', 'r10'], ['r_', 'r1', 'rx'], ['r_1', 'rx1', 'r%1'], ['a', 'a/b', 'a:b'], ['r', 'r1', 'r 1']];

/** The runs of a trial: any ids from the pool, ids of one colliding family, or the two scopes a '/' key conflates. */
const runsArb: fc.Arbitrary<RunPlan[]> = fc.oneof(
  { weight: 3, arbitrary: fc.uniqueArray(id(RUN_IDS), { minLength: 1, maxLength: 3 }).chain((ids) => fc.tuple(...ids.map((i) => run(i)))) },
  { weight: 2, arbitrary: fc.constantFrom(...ID_FAMILIES).chain((family) => fc.shuffledSubarray([...family], { minLength: 2 })).chain((ids) => fc.tuple(...ids.map((i) => run(i)))) },
  // ("a/b", "c") and ("a", "b/c") join to the same "a/b/c".
  { weight: 1, arbitrary: fc.tuple(run('a/b', fc.constant(['c', 'n'])), run('a', fc.constant(['b/c', 'n']))).map((rs) => [...rs]) },
);

// Most calls of a turn commit; some are left prepared, time out (ambiguous) or settle only later (a turn still running).
const fate = fc.constantFrom('commit', 'commit', 'commit', 'commit', 'commit', 'unsettled', 'timeout', 'deferred', 'deferred');

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
const RUN_POINTS = ['prepare.before-commit', 'prepare.before-commit', 'prepare.after-commit', 'settle.before-commit', 'settle.after-commit', 'run-sweep.before-commit'];
const SESSION_POINTS = ['prepare.before-commit', 'settle.after-commit', 'session-sweep.before-commit', 'session-sweep.between-chunks', 'session-sweep.after-commit'];

const killAt = (f: Features, boundaries: readonly string[], then: fc.Arbitrary<KillPlan | null>): fc.Arbitrary<KillPlan> => {
  const wanted = boundaries === SESSION_BOUNDARIES ? SESSION_POINTS : RUN_POINTS;
  const points = f.points.filter((p) => wanted.includes(p));
  return fc.oneof(
    ...(points.length > 0 ? [{ weight: 3, arbitrary: fc.record({ via: fc.constant('point' as const), point: fc.constantFrom(...points), occurrence: fc.constantFrom(1, 1, 2), jump: jump(f), then }) }] : []),
    { weight: 6, arbitrary: fc.record({ via: fc.constant('boundary' as const), boundary: fc.constantFrom(...boundaries), occurrence: fc.constantFrom(1, 1, 1, 2, 3), jump: jump(f), then }) },
    { weight: 3, arbitrary: fc.record({ via: fc.constant('opportunity' as const), at: fc.integer({ min: 1, max: 30 }), jump: jump(f), then }) },
    ...(f.strace ? [{ weight: 1, arbitrary: syscallKill(f, boundaries === SESSION_BOUNDARIES ? ['sessionSweep', 'prepare', 'settle', 'any'] : ['prepare', 'settle', 'runTerminal', 'any'], then) }] : []),
  );
};

// The n-th durable syscall from the k-th operation of a kind (strace attaches right before it): inside one operation.
function syscallKill(f: Features, ops: ReadonlyArray<'prepare' | 'settle' | 'runTerminal' | 'sessionSweep' | 'any'>, then: fc.Arbitrary<KillPlan | null>, calls = 2): fc.Arbitrary<KillPlan> {
  return fc.record({
    via: fc.constant('syscall' as const),
    op: fc.constantFrom(...ops),
    occurrence: fc.integer({ min: 1, max: Math.max(1, calls) }),
    syscall: fc.constantFrom('pwrite64' as const, 'pwrite64' as const, 'pwrite64' as const, 'fdatasync' as const),
    n: fc.integer({ min: 1, max: 14 }),
    jump: jump(f),
    then,
  });
}

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
    // Runs start in their own steps (each with its kill); here only a later look at a run's gate.
    { weight: 3, arbitrary: r.map((run) => ({ kind: 'regate' as const, run })) },
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
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('resume' as const), session: s, noticeFails: fc.constantFrom(false, false, false, true), deferSweep: fc.constantFrom(false, false, true) }) },
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

/** The arbitrary of one trial for an implementation with these features: the base case, then its widening (arb-widen.ts). */
export function trialCase(f: Features): fc.Arbitrary<TrialCase> {
  // The dimensions come last and only in their profile (fc.constant draws nothing): the other streams are unchanged.
  // The session operator's draw comes after them all, and only where there are sessions to resolve.
  const operator = f.sessions && f.resolution ? sessionOperator : fc.constant(null);
  return fc.tuple(baseCase(f), widening, f.dimensions === true ? dimensions : fc.constant(null), operator).map(([c, w, d, o]) => withSessionOperator(withDimensions(widen(c, w), d), o));
}

// Everything but the widening; its draws come first, so widening never changes them.
function baseCase(f: Features): fc.Arbitrary<TrialCase> {
  const runs = runsArb;
  return fc
    .record({
      runs,
      sessions: f.sessions ? fc.uniqueArray(id(SESSION_IDS), { minLength: 1, maxLength: 2 }) : fc.constant([]),
      extras: fc.array(step(f), { maxLength: 6 }),
      // Faults are cheap (no extra driver) and each disturbs a different path: several per trial.
      faults: fc.array(faultStep(f), { maxLength: f.faults.length === 0 ? 0 : 3 }),
      // A legacy writer's rows (when the journal can plant them): in half the trials.
      legacy: f.seeding ? fc.option(fc.record({ kind: fc.constant('seed' as const), run: fc.nat(3), session: fc.nat(2), digest: fc.constantFrom('unversioned' as const, 'v4' as const) }), { nil: null }) : fc.constant(null),
      turns: f.sessions ? fc.array(fc.record({ session: fc.nat(2), turn, resume: fc.constantFrom(true, true, false) }), { maxLength: 3 }) : fc.constant<Array<{ session: number; turn: TurnPlan; resume: boolean }>>([]),
      // A second driver racing the first on prepares of one identity (it costs a driver start: not in every trial).
      race: fc.option(fc.record({ act: fc.record({ kind: fc.constant('race-prepare' as const), attempts: fc.integer({ min: 2, max: 6 }), delays: fc.array(fc.constantFrom(0, 0, 0, 1), { minLength: 6, maxLength: 6 }), settle: fc.boolean() }), kill: fc.constant(null) }), { nil: null, freq: 2 }),
      // KXM effects through the dispatch fence, killed inside it (when the journal speaks kxm.*).
      kxm: f.kxm ? fc.array(kxmStep(f), { maxLength: 2 }) : fc.constant([]),
      // Cheap probes (no extra driver): settles of unknown or settled rows, outer-transaction sweeps, repeated turns.
      probes: fc.array(probeStep(f), { maxLength: 2 }),
      order: fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
    })
    .chain(({ runs: rs, sessions, extras, faults, legacy, probes, kxm, race, turns: ts, order }) => {
      // Every run starts once (most of them killed somewhere in it), every planned turn happens; extras go in between.
      const runSteps = rs.map((plan, i) => runStep(f, i, plan));
      const rests = rs.map((plan, i) => (plan.nodes.length > 1 ? fc.constantFrom<Step[]>([], [{ act: { kind: 'run-rest', run: i }, kill: null }]) : fc.constant<Step[]>([])));
      const turnSteps = ts.map((x) => sessionSteps(f, x.session, x.turn, x.resume));
      return fc.tuple(fc.tuple(...runSteps), fc.tuple(...turnSteps), fc.tuple(...rests)).map(([rSteps, tSteps, rRests]): TrialCase => {
        // A run whose rest comes later pauses after its first node: other runs start, sweep and die around it.
        const paused = new Set((rRests as Step[][]).flatMap((r) => r.map((x) => (x.act as { run: number }).run)));
        const starts = (rSteps as unknown as Step[][]).flat().map((x) => (x.act.kind === 'run' && paused.has(x.act.run) ? { ...x, act: { ...x.act, pause: 1 } } : x));
        const singles = [...extras, ...faults, ...probes, ...(legacy === null ? [] : [{ act: legacy, kill: null }]), ...kxm, ...(race === null ? [] : [race])];
        return { runs: rs, sessions, steps: interleave([starts, ...(tSteps as Step[][]), ...(rRests as Step[][]), ...singles.map((e) => [e])], order) };
      });
    });
}

// A run is mostly killed inside a node with k of its calls done: after a settle or tool result a re-run must replay
// or refuse; after a prepare or dispatch the gate must refuse (or reconcile) although earlier calls committed.
// Now and then an operator then resolves what needs attention.
function runStep(f: Features, run: number, plan: RunPlan): fc.Arbitrary<Step[]> {
  const calls = plan.nodes.reduce((n, node) => n + node.calls.length, 0);
  const first = plan.nodes[0]?.calls.length ?? 1;
  // Half the time after the first node's last call: every call of it committed, every one re-asked.
  const occurrence = fc.oneof({ weight: 1, arbitrary: fc.constant(first) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: Math.max(1, calls) }) });
  // Where a re-run must replay or refuse (after a settle or a tool result), and where its gate must refuse although
  // earlier calls committed (after a prepare or a dispatch).
  const window = fc.record({ via: fc.constant('boundary' as const), boundary: fc.constantFrom('after-settle', 'after-tool-result'), occurrence, jump: jump(f), then: recoveryKill(f) });
  const unresolved = fc.record({ via: fc.constant('boundary' as const), boundary: fc.constantFrom('after-dispatch', 'after-prepare'), occurrence, jump: jump(f), then: recoveryKill(f) });
  const points = f.points.filter((p) => RUN_POINTS.includes(p));
  const point = () => fc.record({ via: fc.constant('point' as const), point: fc.constantFrom(...RUN_POINTS.filter((p) => points.includes(p))), occurrence: fc.integer({ min: 1, max: Math.max(1, calls) }), jump: jump(f), then: recoveryKill(f) });
  const syscall = syscallKill(f, ['prepare', 'prepare', 'settle', 'runTerminal'], recoveryKill(f), calls);
  const kill = fc.oneof(
    { weight: 8, arbitrary: window },
    { weight: 2, arbitrary: unresolved },
    ...(points.length > 0 ? [{ weight: 2, arbitrary: point() }] : []),
    ...(f.strace ? [{ weight: 2, arbitrary: syscall }] : []),
    { weight: 1, arbitrary: killPlan(f, RUN_BOUNDARIES) },
    { weight: 1, arbitrary: fc.constant(null) },
  );
  const runFaults = (['settle_write_fails', 'checkpoint_blocked_by_reader'] as const).filter((x) => f.faults.includes(x));
  const fault = runFaults.length === 0 ? fc.constant(undefined) : fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...runFaults) });
  return fc.tuple(kill, fc.boolean(), fault).map(([k, resolve, ft]): Step[] => [{ act: { kind: 'run', run, ...(ft ? { fault: ft } : {}) }, kill: k }, ...(resolve ? [{ act: { kind: 'resolve' as const, run }, kill: null }] : [])]);
}

// A KXM activity is always killed somewhere in its fence (after an intent, a dispatch mark or a call), or at an announced point.
function kxmStep(f: Features): fc.Arbitrary<Step> {
  const points = f.points.filter((p) => p.startsWith('kxm.'));
  return kxmPlan.chain((plan) => {
    const n = plan.effects.length;
    const boundary = fc.record({ via: fc.constant('boundary' as const), boundary: fc.constantFrom(...KXM_BOUNDARIES), occurrence: fc.integer({ min: 1, max: n }), jump: fc.constant(null), then: fc.constant(null) });
    const point = points.length === 0 ? boundary : fc.record({ via: fc.constant('point' as const), point: fc.constantFrom(...points), occurrence: fc.integer({ min: 1, max: n }), jump: fc.constant(null), then: fc.constant(null) });
    return fc.oneof({ weight: 3, arbitrary: boundary }, { weight: 1, arbitrary: point }).map((kill): Step => ({ act: { kind: 'kxm', plan }, kill }));
  });
}

function probeStep(f: Features): fc.Arbitrary<Step> {
  const options: Array<fc.Arbitrary<Activity>> = [fc.record({ kind: fc.constant('probe-settle' as const), which: fc.constantFrom('unknown' as const, 'again' as const) })];
  if (f.sessions) options.push(fc.record({ kind: fc.constant('repeat-turn' as const), session: fc.nat(2), pick: fc.nat(5) }));
  if (f.sessions && f.outerTransactionProbe) options.push(fc.record({ kind: fc.constant('outer-sweep' as const), session: fc.nat(2) }));
  return fc.oneof(...options).map((act) => ({ act, kill: null }));
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
  if (t.deferred.length > 0) return fc.tuple(kill.map((k): Step => ({ act: { kind: 'turn-race', session, turn: t }, kill: k })));
  const resumeStep = fc.tuple(kill, fc.constantFrom(false, false, false, true)).map(([k, noticeFails]): Step => ({ act: { kind: 'resume', session, noticeFails, deferSweep: false }, kill: k }));
  // An older process (or a repeated message) prepares the same turn again: always refused.
  // (Before the resume: its sweep removes the committed rows a repeat would have to be refused at.)
  const repeat = fc.constantFrom<Step[]>([], [{ act: { kind: 'repeat-turn', session, pick: 99 }, kill: null }]);
  return fc.tuple(turnStep, resumeStep, repeat).map(([a, b, r]) => [a, ...r, b]);
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
