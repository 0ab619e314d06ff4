// Runs the selected scenarios of the catalog against one implementation and returns the sealed conformance report:
// the one place the harness and the scenario catalog meet (the harness itself never imports the catalog).
import { EjcError } from '../shared/errors.js';
import { selectScenarios } from '../harness/select-scenarios.js';
import { runScenario } from '../harness/run-scenario.js';
import { defaultJobs, laneCount, longestFirst, mapPool } from '../harness/pool.js';
import { laneWorkerFile, startLanes, type LaneProcesses } from '../harness/lanes.js';
import { recordedDurations } from '../harness/scenario-durations.js';
import type { Capabilities, HelloResult } from '../shared/protocol/schemas.js';
import { REPORT_SCHEMA_NAME, REPORT_SCHEMA_VERSION, type Launch, type Report, type ScenarioResult, type ScenarioVerdict } from '../reports/schema.js';
import { reportVerdict, summarize, sumCounts } from '../reports/derive.js';
import { sealReport } from '../reports/seal.js';
import { claimedScope } from '../reports/scope.js';
import { claimBoundary } from '../reports/boundary.js';
import { notTestedOf } from '../reports/not-tested.js';
import { describeEnvironment } from '../harness/machine-environment.js';
import { fingerprintImplementation, harnessVersion, probe, referenceAdapterPath, resolveForSpawn, sortedCaps, REFERENCE_MODULE } from '../harness/implementation.js';
import { harnessBuild } from '../reports/harness-build.js';
import { settingsOf, type FamilySettings } from '../reports/settings.js';
import { allScenarios } from '../scenarios/catalog.js';
import type { Scenario } from '../harness/scenario.js';
import { DEFAULT_TIMEOUT_MS } from '../shared/defaults.js';
import { maskValue, registeredSecrets } from '../shared/secrets/mask.js';

export interface RunOptions {
  launch: Launch;
  scenarioPatterns: string[];
  tags: string[];
  seed: number;
  shard: { index: number; count: number } | null;
  expectFailures: ReadonlySet<string>;
  /** The --expect-failures file as given, so a listed scenario's reproduce command carries it. */
  expectFailuresFile?: string;
  /** Scenario id globs left out of the selection (before sharding). */
  excludePatterns?: string[];
  keep: 'all' | 'failed' | 'none';
  /** Where kept trial directories go (`<out>/kept` for `ejc run --out`); unset: the temp directory. */
  keepRoot?: string;
  /** Keep every trial's wire transcript, even where the trial directory is not kept. */
  transcripts?: boolean;
  /** Where report.json will be written, for its `reproduce.verify` command. */
  reportPath?: string | null;
  timeoutMs: number;
  /** Scenarios run concurrently (default: one per core); the report is the same for every value. */
  jobs?: number;
  /**
   * Where concurrent scenarios run: each lane in a process of its own (the default where the compiled lane entry is
   * there), or all in this one (the sources under test, or asked for). The report is the same either way.
   */
  lanes?: 'processes' | 'in-process';
  /** Values of the launch's declared-secret options (`launch.secretOptions` names them); never recorded. */
  implSecrets?: Readonly<Record<string, string>>;
  /** Stop at the first failed, inconclusive or stale scenario: running ones finish, nothing new starts; the report is partial. */
  bail?: boolean;
  argv: string[];
  /** --impl-files globs: files the implementation loads, bound into the report's fingerprint. */
  implFiles?: readonly string[];
  /** Outcome-shaping settings a scenario family adds (recorded under settings.families). */
  familySettings?: FamilySettings;
  onProgress?: (e: ProgressEvent) => void;
}

export type ProgressEvent =
  | { kind: 'scenario-start'; index: number; total: number; id: string }
  | { kind: 'scenario-end'; index: number; total: number; id: string; verdict: ScenarioVerdict; durationMs: number }
  | { kind: 'kept'; id: string; dir: string };

export { REFERENCE_MODULE, fingerprintImplementation, harnessVersion, probe, referenceAdapterPath, resolveForSpawn, sortedCaps };

/** The reference journal's launch: the bundled adapter through the host driver. */
export function defaultLaunch(options: Record<string, string> = {}): Launch {
  return { kind: 'module', module: REFERENCE_MODULE, options };
}

/** Runs the matrix and returns the sealed report; usage problems throw EjcError before any trial. */
export async function runConformance(options: RunOptions): Promise<Report> {
  const startedAt = new Date();
  const exclude = options.excludePatterns ?? [];
  const selected = selectScenarios(allScenarios(), options.scenarioPatterns, options.tags, options.shard, exclude);
  for (const id of options.expectFailures) {
    if (!allScenarios().some((s) => s.id === id)) throw new EjcError('usage', `--expect-failures names unknown scenario ${id}`);
  }
  const spawnLaunch = resolveForSpawn(options.launch);
  const jobs = options.jobs ?? defaultJobs();
  // Lane processes start first: they load the harness while this one probes the journal.
  const workerFile = laneCount(jobs, selected.length) > 1 && options.lanes !== 'in-process' ? laneWorkerFile() : null;
  const lanes = workerFile === null ? null : startLanes(laneCount(jobs, selected.length), workerFile);
  let ran: Array<ScenarioResult | undefined>;
  let hello: HelloResult;
  let fingerprint: Report['fingerprint'];
  // Each pack section maps scenario id to that scenario's contribution, so shards hold disjoint keys.
  const sections: Record<string, Record<string, unknown>> = {};
  let stoppedAfter: string | null = null;
  try {
    hello = await probe(spawnLaunch, options.timeoutMs, options.implSecrets);
    fingerprint = fingerprintImplementation(options);
    ran = await runSelected(selected, options, { launch: spawnLaunch, capabilities: hello.capabilities, jobs, lanes, sections, bail: (id) => (stoppedAfter ??= id) });
  } finally {
    await lanes?.close();
  }
  const results = ran.filter((r): r is ScenarioResult => r !== undefined);
  const notRun = selected.filter((_, i) => ran[i] === undefined).map((s) => s.id);
  sortSections(sections);
  const summary = summarize(results);
  const environment = [describeEnvironment(options.shard?.index ?? null)];
  const finishedAt = new Date();
  // Sealed after masking, so the hashes cover exactly the bytes every writer emits.
  return sealReport(maskValue({
    schema: { name: REPORT_SCHEMA_NAME, version: REPORT_SCHEMA_VERSION },
    implementation: { name: hello.name, version: hello.version, protocolVersion: hello.protocolVersion, capabilities: sortedCaps(hello.capabilities), launch: options.launch },
    harness: { name: 'effect-journal-conformance', version: harnessVersion(), node: process.version, platform: `${process.platform}-${process.arch}`, build: harnessBuild() },
    seed: options.seed,
    selection: { scenarios: [...options.scenarioPatterns], tags: [...options.tags], shard: options.shard, ...(exclude.length > 0 ? { exclude: [...exclude] } : {}) },
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    verdict: reportVerdict(summary),
    scope: claimedScope(results),
    notTested: notTestedOf(environment, results),
    summary,
    counts: sumCounts(results.flatMap((r) => r.trials)),
    scenarios: results,
    sections,
    reproduce: { run: reproduceRunCommand(options), verify: `npx ejc verify ${shellQuote(options.reportPath ?? 'report.json')}` },
    boundary: claimBoundary(hello.capabilities.externalState, environment),
    fingerprint,
    environment,
    settings: settingsOf(options),
    ...(stoppedAfter === null ? {} : { partial: { reason: 'bail' as const, stoppedAfter, notRun } }),
  }));
}

/**
 * Runs the scenarios on `jobs` lanes, longest first, in this process or on the lane processes; results come back in
 * catalog order, undefined for a scenario --bail kept from starting.
 */
async function runSelected(
  selected: readonly Scenario[],
  options: RunOptions,
  run: { launch: Launch; capabilities: Capabilities; jobs: number; lanes: LaneProcesses | null; sections: Record<string, Record<string, unknown>>; bail: (id: string) => void },
): Promise<Array<ScenarioResult | undefined>> {
  const shared = {
    launch: run.launch,
    seed: options.seed,
    timeoutMs: options.timeoutMs,
    keep: options.keep,
    ...(options.keepRoot === undefined ? {} : { keepRoot: options.keepRoot }),
    capabilities: run.capabilities,
    ...(options.transcripts === true ? { transcripts: true } : {}),
    ...(options.implSecrets === undefined ? {} : { implSecrets: options.implSecrets }),
  };
  run.lanes?.setup({ ...shared, secrets: registeredSecrets() });
  const events = {
    onKept: (id: string, dir: string) => options.onProgress?.({ kind: 'kept', id, dir }),
    onSection: (name: string, id: string, value: unknown) => {
      (run.sections[name] ??= {})[id] = value;
    },
  };
  let done = 0;
  let stopped = false;
  return mapPool(selected, run.jobs, async (scenario, i, lane) => {
    options.onProgress?.({ kind: 'scenario-start', index: i + 1, total: selected.length, id: scenario.id });
    const task = { id: scenario.id, expectedFailure: options.expectFailures.has(scenario.id), reproduce: reproduceCommand(options, scenario.id) };
    const result = run.lanes === null ? await runScenario(scenario, { ...shared, ...task, ...events }) : await run.lanes.run(lane, task, events);
    done += 1;
    if (options.bail === true && BAIL_VERDICTS.has(result.verdict)) {
      stopped = true;
      run.bail(scenario.id);
    }
    options.onProgress?.({ kind: 'scenario-end', index: done, total: selected.length, id: scenario.id, verdict: result.verdict, durationMs: result.durationMs });
    return result;
  }, () => stopped, scheduleOrder(selected));
}

/** The verdicts --bail stops at: everything that fails a gate. An expected failure does not. */
const BAIL_VERDICTS: ReadonlySet<ScenarioVerdict> = new Set(['failed', 'inconclusive', 'stale_expected_failure']);

/**
 * Lanes take the longest scenarios first (by the witness's recorded durations; an unrecorded one counts as the
 * mean), so no lane is left running one long sweep alone at the end. Results still come back in catalog order.
 */
export function scheduleOrder(scenarios: ReadonlyArray<{ readonly id: string }>, durations: ReadonlyMap<string, number> = recordedDurations()): number[] {
  const known = [...durations.values()];
  const fallback = known.length === 0 ? 0 : known.reduce((a, b) => a + b, 0) / known.length;
  return longestFirst(scenarios, (s) => durations.get(s.id) ?? fallback);
}

/**
 * The exact command that re-runs one scenario with the same outcome: the implementation and its
 * options, the seed, a non-default timeout, and the expect-failures file when it lists the scenario.
 */
export function reproduceCommand(options: Pick<RunOptions, 'launch' | 'seed'> & Partial<Pick<RunOptions, 'timeoutMs' | 'expectFailures' | 'expectFailuresFile'>>, id: string): string {
  const timeout = options.timeoutMs === undefined || options.timeoutMs === DEFAULT_TIMEOUT_MS ? [] : [`--timeout ${options.timeoutMs}`];
  const listed = options.expectFailuresFile !== undefined && options.expectFailures?.has(id) === true;
  const expect = listed ? [`--expect-failures ${shellQuote(options.expectFailuresFile!)}`] : [];
  return ['npx ejc run', ...implFlags(options.launch), `--scenario ${shellQuote(id)}`, `--seed ${options.seed}`, ...timeout, ...expect, '--keep-failed'].join(' ');
}

/**
 * The command that re-runs the whole run: the caller's other flags kept, the ones that name the
 * implementation or shape outcomes written from the options, so it always agrees with the report.
 */
export function reproduceRunCommand(options: Pick<RunOptions, 'launch' | 'scenarioPatterns' | 'tags' | 'seed' | 'shard' | 'timeoutMs' | 'argv'> & Partial<Pick<RunOptions, 'excludePatterns'>>): string {
  const rebuilt = new Set(['impl', 'impl-option', 'impl-secret', 'cmd', 'scenario', 'tag', 'exclude', 'seed', 'shard', 'timeout']);
  const args = options.argv[0] === 'run' ? options.argv.slice(1) : options.argv;
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const flag = /^--([a-z-]+)(=.*)?$/s.exec(args[i]!);
    if (flag !== null && rebuilt.has(flag[1]!)) {
      if (flag[2] === undefined) i++;
    } else kept.push(args[i]!);
  }
  return [
    'npx ejc run',
    ...implFlags(options.launch),
    ...options.scenarioPatterns.map((p) => `--scenario ${shellQuote(p)}`),
    ...options.tags.map((t) => `--tag ${shellQuote(t)}`),
    ...(options.excludePatterns ?? []).map((p) => `--exclude ${shellQuote(p)}`),
    `--seed ${options.seed}`,
    ...(options.shard === null ? [] : [`--shard ${options.shard.index}/${options.shard.count}`]),
    `--timeout ${options.timeoutMs}`,
    ...kept.map(shellQuote),
  ].join(' ');
}

function implFlags(launch: Launch): string[] {
  if (launch.kind === 'command') return [`--cmd ${shellQuote(launch.command)}`];
  const impl = launch.module === REFERENCE_MODULE ? [] : [`--impl ${shellQuote(launch.module)}`];
  // A secret option is named by the variable it is read from, so the command runs without carrying the value.
  const secrets = Object.entries(launch.secretOptions ?? {}).map(([k, env]) => `--impl-secret ${shellQuote(`${k}=env:${env}`)}`);
  return [...impl, ...Object.entries(launch.options).map(([k, v]) => `--impl-option ${shellQuote(`${k}=${v}`)}`), ...secrets];
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

// Sections are filled as scenarios finish; key order must not depend on which finished first.
function sortSections(sections: Record<string, Record<string, unknown>>): void {
  for (const name of Object.keys(sections)) {
    const entries = Object.entries(sections[name]!).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    sections[name] = Object.fromEntries(entries);
  }
}

