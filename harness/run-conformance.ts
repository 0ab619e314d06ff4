// Runs the selected scenarios against one implementation and returns the sealed conformance report.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { startDriver } from './driver/start-driver.js';
import { EjcError } from './errors.js';
import { selectScenarios } from './select-scenarios.js';
import { runScenario } from './run-scenario.js';
import { defaultJobs, mapPool } from './pool.js';
import type { Capabilities, HelloResult } from './protocol/schemas.js';
import { REPORT_SCHEMA_NAME, REPORT_SCHEMA_VERSION, type Launch, type Report, type ScenarioResult, type ScenarioVerdict } from '../reports/schema.js';
import { reportVerdict, summarize, sumCounts } from '../reports/derive.js';
import { sealReport } from '../reports/seal.js';
import { claimBoundary } from '../reports/boundary.js';
import { allScenarios } from '../scenarios/catalog.js';

export interface RunOptions {
  launch: Launch;
  scenarioPatterns: string[];
  tags: string[];
  seed: number;
  shard: { index: number; count: number } | null;
  expectFailures: ReadonlySet<string>;
  keep: 'all' | 'failed' | 'none';
  timeoutMs: number;
  /** Scenarios run concurrently (default: one per core); the report is the same for every value. */
  jobs?: number;
  argv: string[];
  onProgress?: (e: ProgressEvent) => void;
}

export type ProgressEvent =
  | { kind: 'scenario-start'; index: number; total: number; id: string }
  | { kind: 'scenario-end'; index: number; total: number; id: string; verdict: ScenarioVerdict; durationMs: number }
  | { kind: 'kept'; id: string; dir: string };

/** The module name that stands for the bundled reference journal, portable across machines. */
export const REFERENCE_MODULE = 'ejc:reference';

/** The reference journal's launch: the bundled adapter through the host driver. */
export function defaultLaunch(options: Record<string, string> = {}): Launch {
  return { kind: 'module', module: REFERENCE_MODULE, options };
}

/** Runs the matrix and returns the sealed report; usage problems throw EjcError before any trial. */
export async function runConformance(options: RunOptions): Promise<Report> {
  const startedAt = new Date();
  const selected = selectScenarios(allScenarios(), options.scenarioPatterns, options.tags, options.shard);
  for (const id of options.expectFailures) {
    if (!allScenarios().some((s) => s.id === id)) throw new EjcError('usage', `--expect-failures names unknown scenario ${id}`);
  }
  const spawnLaunch = resolveForSpawn(options.launch);
  const hello = await probe(spawnLaunch, options.timeoutMs);
  // Each pack section maps scenario id to that scenario's contribution, so shards hold disjoint keys.
  const sections: Record<string, Record<string, unknown>> = {};
  let done = 0;
  const ran = await mapPool(selected, options.jobs ?? defaultJobs(), async (scenario, i) => {
    options.onProgress?.({ kind: 'scenario-start', index: i + 1, total: selected.length, id: scenario.id });
    const result = await runScenario(scenario, {
      launch: spawnLaunch,
      seed: options.seed,
      timeoutMs: options.timeoutMs,
      keep: options.keep,
      capabilities: hello.capabilities,
      expectedFailure: options.expectFailures.has(scenario.id),
      reproduce: reproduceCommand(options, scenario.id),
      onKept: (id, dir) => options.onProgress?.({ kind: 'kept', id, dir }),
      onSection: (name, id, value) => {
        (sections[name] ??= {})[id] = value;
      },
    });
    done += 1;
    options.onProgress?.({ kind: 'scenario-end', index: done, total: selected.length, id: scenario.id, verdict: result.verdict, durationMs: result.durationMs });
    return result;
  });
  const results = ran.filter((r): r is ScenarioResult => r !== undefined);
  sortSections(sections);
  const summary = summarize(results);
  const finishedAt = new Date();
  return sealReport({
    schema: { name: REPORT_SCHEMA_NAME, version: REPORT_SCHEMA_VERSION },
    implementation: { name: hello.name, version: hello.version, protocolVersion: hello.protocolVersion, capabilities: sortedCaps(hello.capabilities), launch: options.launch },
    harness: { name: 'effect-journal-conformance', version: harnessVersion(), node: process.version, platform: `${process.platform}-${process.arch}` },
    seed: options.seed,
    selection: { scenarios: [...options.scenarioPatterns], tags: [...options.tags], shard: options.shard },
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    verdict: reportVerdict(summary),
    summary,
    counts: sumCounts(results.flatMap((r) => r.trials)),
    scenarios: results,
    sections,
    reproduce: { run: ['npx ejc', ...options.argv.map(shellQuote)].join(' ').trim(), verify: 'npx ejc verify report.json' },
    boundary: claimBoundary(),
  });
}

/** The bundled reference adapter's compiled path. */
export function referenceAdapterPath(): string {
  const here = fileURLToPath(import.meta.url);
  const candidates = [resolve(dirname(here), '../reference-impl/adapter.js'), resolve(dirname(here), '../dist/reference-impl/adapter.js')];
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new EjcError('adapter_missing', `the reference adapter is not built (looked for ${candidates.join(', ')}): run npm run build`);
  return found;
}

/** The launch as it is spawned: the reference alias and relative module paths made absolute. */
export function resolveForSpawn(launch: Launch): Launch {
  if (launch.kind !== 'module') return launch;
  const module = launch.module === REFERENCE_MODULE ? referenceAdapterPath() : resolve(process.cwd(), launch.module);
  return { ...launch, module };
}

/** One throwaway driver to learn the capabilities; a broken adapter fails here, before any trial. */
export async function probe(launch: Launch, timeoutMs: number): Promise<HelloResult> {
  const handle = await startDriver(launch, { label: 'probe', cwd: process.cwd(), timeoutMs });
  await handle.close();
  return handle.hello;
}

/** The exact command that re-runs one scenario with the same implementation and seed. */
export function reproduceCommand(options: Pick<RunOptions, 'launch' | 'seed'>, id: string): string {
  const impl = options.launch.kind === 'command' ? `--cmd ${shellQuote(options.launch.command)}` : options.launch.module === REFERENCE_MODULE ? '' : `--impl ${shellQuote(options.launch.module)}`;
  const implOptions = options.launch.kind === 'module' ? Object.entries(options.launch.options).map(([k, v]) => `--impl-option ${shellQuote(`${k}=${v}`)}`) : [];
  return ['npx ejc run', impl, ...implOptions, `--scenario ${shellQuote(id)}`, `--seed ${options.seed}`, '--keep-failed'].filter((p) => p !== '').join(' ');
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

/** Capabilities with their lists sorted, as reports record them. */
export function sortedCaps(caps: Capabilities): Capabilities {
  return { ...caps, crashPoints: [...caps.crashPoints].sort(), faults: [...caps.faults].sort() };
}

/** The harness package version. */
export function harnessVersion(): string {
  const require = createRequire(import.meta.url);
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = require(rel) as { name?: string; version?: string };
      if (pkg.name === 'effect-journal-conformance' && pkg.version) return pkg.version;
    } catch {
      // try the next location: sources and dist sit at different depths
    }
  }
  return '0.0.0';
}
