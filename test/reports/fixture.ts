// Hand-built reports for the report tests: what a runner would produce, derived with the same rules.
import { claimBoundary } from '../../reports/boundary.js';
import { reportVerdict, scenarioVerdict, sumCounts, summarize, trialVerdict } from '../../reports/derive.js';
import type { Report, ScenarioResult, Trial } from '../../reports/schema.js';
import { REPORT_SCHEMA_NAME, REPORT_SCHEMA_VERSION, zeroCounts } from '../../reports/schema.js';
import { sealReport } from '../../reports/seal.js';
import { fingerprintOf } from '../../reports/fingerprint.js';
import { selectScenarios } from '../../harness/select-scenarios.js';

/** One crash trial: planned one kill, got it, all assertions passed unless told otherwise. */
export function trial(id: string, overrides: Partial<Trial> = {}): Trial {
  const base: Omit<Trial, 'verdict'> = {
    id,
    seed: 1,
    plannedKills: 1,
    kills: [{ planned: 'boundary:after-settle', point: 'boundary:after-settle', seq: 7, signal: 'SIGKILL', driver: 'd1' }],
    effectsBefore: null,
    effectsAfter: [
      {
        effectId: 'e1',
        scope: { kind: 'run', runId: 'R', nodeId: 'N' },
        slot: 0,
        toolId: 'tool.write',
        tier: 3,
        state: 'committed',
        argsDigest: `v5:${'a'.repeat(64)}`,
        idempotencyKey: null,
        resultRetained: true,
        resolution: null,
        attempt: { nodeAttempt: 1, providerAttempt: 0, callId: 'c1', ownerId: 'o1', generation: 0 },
      },
    ],
    assertions: [
      { name: 'writes', expected: 1, actual: 1, passed: true },
      { name: 'gate', expected: 'pass', actual: 'pass', passed: true },
    ],
    counts: { ...zeroCounts(), trials: 1, kills: 1, restarts: 1, dispatchAttempts: 1, physicalWrites: 1, replays: 1 },
    inconclusiveReason: null,
    violations: [],
    stderrTail: [],
    durationMs: 12.5,
    ...overrides,
  };
  return { ...base, verdict: overrides.verdict ?? trialVerdict(base) };
}

/** A scenario whose verdict is derived from its trials. */
export function scenario(id: string, trials: Trial[], overrides: Partial<ScenarioResult> = {}): ScenarioResult {
  return {
    id,
    title: `scenario ${id}`,
    spec: `§12.${id.slice(2, 4)}`,
    tags: ['crash'],
    verdict: trials.length === 0 ? 'not_applicable' : scenarioVerdict(trials, { expectedFailure: false }),
    reason: trials.length === 0 ? 'needs sessions' : null,
    reproduce: `ejc run --scenario ${id} --seed 1`,
    trials,
    durationMs: 30,
    ...overrides,
  };
}

/** The default scenario set: three passing crash scenarios and one not applicable. */
export function defaultScenarios(): ScenarioResult[] {
  return [
    scenario('cp01.kill-before-commit', [trial('t1'), trial('t2')]),
    scenario('cp02.after-prepare', [trial('t1')]),
    scenario('cp04.after-settle', [trial('t1'), trial('t2'), trial('t3')]),
    scenario('cp10.session-disclosure', []),
    scenario('cp11.retention', [trial('t1', { plannedKills: 0, kills: [], counts: { ...zeroCounts(), trials: 1 } })]),
  ];
}

/** A sealed report over the scenarios (or the given shard of them), with counts, summary and verdict derived. */
export function buildReport(
  scenarios: ScenarioResult[] = defaultScenarios(),
  options: { shard?: { index: number; count: number }; host?: string; startedAt?: string } = {},
): Report {
  const shard = options.shard ?? null;
  const chosen = selectScenarios(scenarios, [], [], shard);
  const summary = summarize(chosen);
  const shardFlag = shard === null ? '' : ` --shard ${shard.index}/${shard.count}`;
  return sealReport({
    schema: { name: REPORT_SCHEMA_NAME, version: REPORT_SCHEMA_VERSION },
    implementation: {
      name: 'reference-sqlite',
      version: '0.1.0',
      protocolVersion: 1,
      capabilities: {
        crashPoints: ['prepare.before-commit'],
        faults: ['settle_write_fails'],
        tierMode: 'conservative',
        sessions: true,
        seeding: true,
        outerTransactionProbe: true,
      },
      launch: { kind: 'module', module: 'ejc:reference', options: {} },
    },
    harness: { name: 'effect-journal-conformance', version: '0.1.0', node: 'v20.20.2', platform: options.host ?? 'linux-x64', build: { algorithm: 'sha256', digest: 'b'.repeat(64), files: 120 } },
    seed: 1,
    selection: { scenarios: [], tags: [], shard },
    startedAt: options.startedAt ?? '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:05.000Z',
    durationMs: 5000,
    verdict: reportVerdict(summary),
    summary,
    counts: sumCounts(chosen.flatMap((s) => s.trials)),
    scenarios: chosen.map((s) => ({ ...s, reproduce: `${s.reproduce}${shardFlag}` })),
    sections: {},
    reproduce: { run: `ejc run --seed 1${shardFlag} --json`, verify: 'ejc verify out/report.json' },
    boundary: claimBoundary(undefined, [{ confinement: 'pid-namespace' }]),
    fingerprint: fixtureFingerprint(),
    environment: [
      {
        shard: shard?.index ?? null,
        node: 'v20.20.2',
        betterSqlite3: '12.11.1',
        sqlite: '3.50.4',
        os: { platform: 'linux', arch: 'x64', release: '6.1.0', version: '#1 SMP Debian' },
        trialFs: options.host === undefined ? 'ext4' : `fs-of-${options.host}`,
        strace: '6.1',
        confinement: 'pid-namespace',
      },
    ],
    // The runner records the expect-failures list it was given; a fixture lists exactly its expected scenarios.
    settings: { timeoutMs: 30_000, expectFailures: chosen.filter((s) => s.verdict === 'expected_failure' || s.verdict === 'stale_expected_failure').map((s) => s.id).sort(), families: {} },
  });
}

/** The fingerprint of a reference-journal run: its adapter and one module it loads. */
export function fixtureFingerprint(): Report['fingerprint'] {
  return fingerprintOf([
    { path: 'ejc:reference-impl/adapter.js', role: 'adapter', sha256: 'c'.repeat(64), bytes: 812 },
    { path: 'ejc:reference-impl/journal.js', role: 'loaded', sha256: 'd'.repeat(64), bytes: 9120 },
  ]);
}

/** A deep copy to break without touching the original. */
export function clone<T>(value: T): T {
  return structuredClone(value);
}

/** A copy of `report` whose first scenario failed one assertion (two writes where one was due), unsealed. */
export function withFirstScenarioFailed(report: Report): Report {
  const failing = clone(report);
  const s = failing.scenarios[0]!;
  s.trials[0]!.assertions[0] = { name: 'writes', expected: 1, actual: 2, passed: false };
  s.trials[0]!.verdict = 'failed';
  s.verdict = 'failed';
  failing.summary.passed -= 1;
  failing.summary.failed += 1;
  failing.verdict = 'nonconformant';
  return failing;
}
