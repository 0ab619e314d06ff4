// The exploration as a conformance report: one scenario per trial of the stream, the shrunk counterexample, and its replay command.
import type { HelloResult } from '../../shared/protocol/schemas.js';
import { REFERENCE_MODULE, fingerprintImplementation, harnessVersion, referenceAdapterPath, sortedCaps } from '../implementation.js';
import { describeEnvironment } from '../../reports/environment.js';
import { harnessBuild } from '../../reports/harness-build.js';
import { settingsOf } from '../../reports/settings.js';
import { maskValue } from '../../shared/secrets/mask.js';
import { REPORT_SCHEMA_NAME, REPORT_SCHEMA_VERSION, type Launch, type Report, type ScenarioResult } from '../../reports/schema.js';
import { reportVerdict, scenarioVerdict, summarize, sumCounts } from '../../reports/derive.js';
import { sealReport } from '../../reports/seal.js';
import { claimBoundary } from '../../reports/boundary.js';
import type { Features, TrialCase } from './case.js';
import type { Shrunk, StreamTrial } from './explorer.js';
import { machineFeatures, type Profile } from './features.js';

// The CLI's default per-operation timeout (bin/help.ts): a replay command names the timeout only when it differs.
const DEFAULT_TIMEOUT_MS = 30_000;
import type { ExploreOptions } from './run-explore.js';
import type { GeneratedTrial } from './trial.js';
import { counterexampleOf, exploreSettings } from './counterexample.js';

export interface ExploreReportInput {
  readonly options: ExploreOptions;
  readonly hello: HelloResult;
  readonly features: Features;
  readonly stream: readonly StreamTrial[];
  readonly shrunk: Shrunk | null;
  readonly started: Date;
  readonly idOf: (index: number) => string;
}

/** Seals the exploration's report: the same shape `ejc run` writes, so verify, merge and JUnit take it as it is. */
export function buildExploreReport(x: ExploreReportInput): Report {
  const o = x.options;
  const replayOf = (seed: number, path: string) => replayCommand(o.launch, seed, path, x.features, o.timeoutMs, o.profile);
  const scenarios: ScenarioResult[] = x.stream.map((t) => scenario(o.replay !== null ? 'explore.replay' : x.idOf(t.index), t.result, t.case, replayOf(t.seed, o.replay?.path ?? '0')));
  const section: Record<string, unknown> = {};
  for (const t of x.stream) section[o.replay !== null ? 'explore.replay' : x.idOf(t.index)] = { fastCheckSeed: t.seed, path: o.replay?.path ?? '0', ...summaryOf(t.case), violation: t.result.violation, ...(t.result.violation ? { counterexample: counterexampleOf(t.result, replayOf(t.seed, o.replay?.path ?? '0')) } : {}) };
  const shrunk = x.shrunk;
  if (shrunk !== null) {
    const first = x.stream.find((t) => t.result.trial.verdict === 'failed')!;
    const id = `${x.idOf(first.index)}.shrunk`;
    const command = replayOf(shrunk.seed, shrunk.path);
    scenarios.push(scenario(id, shrunk.result, shrunk.case, command));
    section[id] = {
      fastCheckSeed: shrunk.seed,
      path: shrunk.path,
      ...summaryOf(shrunk.case),
      shrinks: shrunk.shrinks,
      shrinkTrials: shrunk.trials,
      replayFailedAgain: shrunk.replayFailed,
      violation: shrunk.result.violation,
      counterexample: counterexampleOf(shrunk.result, command),
    };
  }
  const summary = summarize(scenarios);
  const finished = new Date();
  // Sealed after masking, so the hashes cover exactly the bytes every writer emits (as `ejc run` does).
  return sealReport(maskValue({
    schema: { name: REPORT_SCHEMA_NAME, version: REPORT_SCHEMA_VERSION },
    implementation: { name: x.hello.name, version: x.hello.version, protocolVersion: x.hello.protocolVersion, capabilities: sortedCaps(x.hello.capabilities), launch: o.launch },
    harness: { name: 'effect-journal-conformance', version: harnessVersion(), node: process.version, platform: `${process.platform}-${process.arch}`, build: harnessBuild() },
    seed: o.seed,
    selection: { scenarios: ['explore'], tags: [], shard: o.shard },
    startedAt: x.started.toISOString(),
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - x.started.getTime(),
    verdict: reportVerdict(summary),
    summary,
    counts: sumCounts(scenarios.flatMap((s) => s.trials)),
    scenarios,
    sections: { explore: section, exploreSettings: exploreSettings(o, x.features) },
    reproduce: { run: ['npx ejc', ...o.argv.map(shellQuote)].join(' '), verify: 'npx ejc verify report.json' },
    boundary: claimBoundary(undefined, [describeEnvironment(o.shard?.index ?? null)]),
    fingerprint: fingerprintImplementation({ launch: o.launch }),
    environment: [describeEnvironment(o.shard?.index ?? null)],
    settings: settingsOf({ timeoutMs: o.timeoutMs, expectFailures: [], familySettings: { explore: exploreFamilySettings(o) } }),
  }));
}

// What shapes the stream besides the seed: a re-run or a merge must use the same.
function exploreFamilySettings(o: ExploreOptions): Record<string, string | number | boolean> {
  return {
    trials: o.trials,
    budgetMs: o.budgetMs ?? 0,
    maxShrinks: o.maxShrinks,
    profile: o.profile,
    ...(o.replay === null ? {} : { replay: `${o.replay.seed >>> 0}:${o.replay.path}` }),
  };
}

function scenario(id: string, r: GeneratedTrial, c: TrialCase, reproduce: string): ScenarioResult {
  const verdict = scenarioVerdict([r.trial], { expectedFailure: false });
  const failed = r.trial.assertions.find((a) => !a.passed);
  const reason = r.trial.verdict === 'inconclusive' ? (r.trial.inconclusiveReason ?? r.trial.violations[0]?.message ?? 'inconclusive') : failed ? `assertion failed: ${failed.name}` : null;
  const s = summaryOf(c);
  return {
    id,
    title: `generated: ${s.runs} run(s), ${s.sessions} session(s), ${s.steps} step(s), ${s.plannedKills} planned kill(s)`,
    spec: 'effect-journal (every clause the model checks)',
    tags: ['explore', 'generated'],
    verdict,
    reason,
    reproduce,
    trials: [r.trial],
    durationMs: r.trial.durationMs,
  };
}

/** The counts that describe a generated case. */
export function summaryOf(c: TrialCase): { runs: number; sessions: number; steps: number; plannedKills: number } {
  const kills = (k: TrialCase['steps'][number]['kill']): number => (k === null ? 0 : 1 + kills(k.then));
  return { runs: c.runs.length, sessions: c.sessions.length, steps: c.steps.length, plannedKills: c.steps.reduce((n, st) => n + kills(st.kill), 0) };
}

/** The one command that replays exactly this case: the implementation, fast-check's seed and path, the machine it needs. */
export function replayCommand(launch: Launch, seed: number, path: string, features: Features, timeoutMs: number, profile: Profile): string {
  // The bundled reference journal is named by nothing at all, wherever this machine keeps it.
  const reference = launch.kind === 'module' && (launch.module === REFERENCE_MODULE || launch.module === referenceAdapterPath());
  const impl = launch.kind === 'command' ? [`--cmd ${shellQuote(launch.command)}`] : reference ? [] : [`--impl ${shellQuote(launch.module)}`];
  const options = launch.kind === 'module' ? Object.entries(launch.options).map(([k, v]) => `--impl-option ${shellQuote(`${k}=${v}`)}`) : [];
  const extra = [...(profile === 'mixed' ? [] : [`--profile ${profile}`]), ...(timeoutMs === DEFAULT_TIMEOUT_MS ? [] : [`--timeout ${timeoutMs}`])];
  return ['npx ejc explore', ...impl, ...options, `--replay ${seed >>> 0}:${path}`, `--machine ${machineFeatures(features)}`, ...extra].join(' ');
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
