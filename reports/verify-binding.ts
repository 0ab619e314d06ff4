// Verify's checks of what binds a report to what was tested: fingerprint, environment, settings, reproduce commands.
import { DEFAULT_SEED, DEFAULT_TIMEOUT_MS } from '../shared/defaults.js';
import { splitCommand } from '../shared/split-command.js';
import { canonicalJson } from '../shared/canonical-json.js';
import { wasExpectedFailure } from './derive.js';
import { fingerprintDigest, REFERENCE_ADAPTER_NAMES, REFERENCE_MODULE } from './fingerprint.js';
import type { Launch, Report } from './schema.js';

/** Appends a problem for every inconsistency between the binding fields and the rest of the report. */
export function checkBinding(report: Report, problems: string[]): void {
  checkFingerprint(report, problems);
  checkEnvironment(report, problems);
  checkSettings(report, problems);
  checkReproduce(report, problems);
  checkObservations(report, problems);
}

function checkFingerprint(report: Report, problems: string[]): void {
  const { fingerprint, implementation } = report;
  const paths = fingerprint.files.map((f) => f.path);
  const sorted = [...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (canonicalJson(paths) !== canonicalJson(sorted)) problems.push('$.fingerprint.files: not sorted by path');
  if (new Set(paths).size !== paths.length) problems.push('$.fingerprint.files: a path appears more than once');
  const digest = fingerprintDigest(fingerprint.files);
  if (digest !== fingerprint.digest) problems.push(`$.fingerprint.digest: is ${fingerprint.digest}, its files hash to ${digest}`);
  const roles = (role: string): string[] => fingerprint.files.filter((f) => f.role === role).map((f) => f.path);
  const launch = implementation.launch;
  if (launch.kind === 'module') {
    const adapters = roles('adapter');
    if (adapters.length !== 1) problems.push(`$.fingerprint.files: a module launch has one adapter file, this one has ${adapters.length}`);
    if (roles('executable').length > 0 || roles('argument').length > 0) problems.push('$.fingerprint.files: a module launch has no executable or argument files');
    const reference = launch.module === REFERENCE_MODULE;
    if (reference && !REFERENCE_ADAPTER_NAMES.includes(adapters[0] ?? '')) problems.push(`$.fingerprint.files: the bundled reference journal's adapter is ${REFERENCE_ADAPTER_NAMES.join(' or ')}, not ${adapters[0] ?? 'missing'}`);
    if (!reference && adapters[0]?.startsWith('ejc:')) problems.push(`$.fingerprint.files: adapter ${adapters[0]} is the bundled journal's, but the launch names ${launch.module}`);
  } else {
    if (roles('executable').length !== 1) problems.push(`$.fingerprint.files: a command launch has one executable, this one has ${roles('executable').length}`);
    if (roles('adapter').length > 0) problems.push('$.fingerprint.files: a command launch has no adapter module');
  }
}

// One entry for a run or a shard (naming that shard), one per shard 1..n for a merged report.
function checkEnvironment(report: Report, problems: string[]): void {
  const shards = report.environment.map((e) => e.shard);
  const shard = report.selection.shard;
  if (shard !== null) {
    if (shards.length !== 1 || shards[0] !== shard.index) problems.push(`$.environment: a report of shard ${shard.index}/${shard.count} has one entry for shard ${shard.index}, not ${JSON.stringify(shards)}`);
  } else if (!(shards.length === 1 && shards[0] === null)) {
    const expected = shards.map((_, i) => i + 1);
    if (canonicalJson(shards) !== canonicalJson(expected)) problems.push(`$.environment: an unsharded report has one entry with shard null, a merged one an entry per shard 1..n, not ${JSON.stringify(shards)}`);
  }
}

function checkSettings(report: Report, problems: string[]): void {
  const ids = report.settings.expectFailures;
  const sorted = [...new Set(ids)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (canonicalJson(ids) !== canonicalJson(sorted)) problems.push('$.settings.expectFailures: must be sorted and without repeats');
  const listed = new Set(ids);
  report.scenarios.forEach((s, i) => {
    if (s.trials.length === 0) return;
    if (wasExpectedFailure(s.verdict) && !listed.has(s.id)) problems.push(`$.scenarios[${i}].verdict: is ${s.verdict}, but ${s.id} is not in settings.expectFailures`);
    if (!wasExpectedFailure(s.verdict) && listed.has(s.id)) problems.push(`$.scenarios[${i}].verdict: ${s.id} is listed in settings.expectFailures but its verdict is ${s.verdict}`);
  });
}

function checkReproduce(report: Report, problems: string[]): void {
  if (isExploration(report)) return checkExploreReproduce(report, problems);
  const run = parseRun(report.reproduce.run, '$.reproduce.run', problems);
  if (run !== null) {
    compareLaunch(run, report.implementation.launch, '$.reproduce.run', problems);
    const same = (what: string, recorded: unknown, inCommand: unknown): void => {
      if (JSON.stringify(recorded) !== JSON.stringify(inCommand)) problems.push(`$.reproduce.run: ${what} is ${JSON.stringify(inCommand)} in the command, ${JSON.stringify(recorded)} in the report`);
    };
    same('--seed', report.seed, intOf(run.last('seed')) ?? DEFAULT_SEED);
    same('--scenario', report.selection.scenarios, run.all('scenario'));
    same('--tag', report.selection.tags, run.all('tag'));
    const shard = report.selection.shard;
    same('--shard', shard === null ? null : `${shard.index}/${shard.count}`, run.last('shard') ?? null);
    same('--timeout', report.settings.timeoutMs, intOf(run.last('timeout')) ?? DEFAULT_TIMEOUT_MS);
  }
  report.scenarios.forEach((s, i) => {
    const at = `$.scenarios[${i}].reproduce`;
    const cmd = parseRun(s.reproduce, at, problems);
    if (cmd === null) return;
    compareLaunch(cmd, report.implementation.launch, at, problems);
    if (canonicalJson(cmd.all('scenario')) !== canonicalJson([s.id])) problems.push(`${at}: runs --scenario ${JSON.stringify(cmd.all('scenario'))}, not ${s.id}`);
    if ((intOf(cmd.last('seed')) ?? DEFAULT_SEED) !== report.seed) problems.push(`${at}: runs seed ${cmd.last('seed') ?? DEFAULT_SEED}, the report's seed is ${report.seed}`);
  });
}

// A passed observation the contract lets vary shows only its allowance; the raw value is beside it.
function checkObservations(report: Report, problems: string[]): void {
  report.scenarios.forEach((s, i) =>
    s.trials.forEach((t, j) =>
      t.assertions.forEach((a, k) => {
        if (a.observed === undefined) return;
        const at = `$.scenarios[${i}].trials[${j}].assertions[${k}]`;
        const shown = a.passed ? a.expected : a.observed;
        if (canonicalJson(a.actual) !== canonicalJson(shown)) problems.push(`${at}.actual: a ${a.passed ? 'passed' : 'failed'} variable observation records ${a.passed ? 'its allowance' : 'its observed value'} as actual`);
      }),
    ),
  );
}

interface ParsedRun {
  all(name: string): string[];
  last(name: string): string | undefined;
}

const VALUE_FLAGS = new Set(['impl', 'impl-option', 'impl-files', 'cmd', 'scenario', 'tag', 'seed', 'shard', 'timeout', 'expect-failures', 'out', 'junit', 'jobs', 'sign', 'trials', 'budget', 'max-shrinks', 'replay', 'machine', 'profile']);

/** An `ejc explore` report: its selection is the exploration, its commands are explore commands. */
export function isExploration(report: Report): boolean {
  return canonicalJson(report.selection.scenarios) === canonicalJson(['explore']) && /^(npx )?ejc explore( |$)/.test(report.reproduce.run);
}

// The run command re-explores the same implementation, seed, shard and timeout; each trial's command replays exactly
// it (--replay seed:path) against the same implementation.
function checkExploreReproduce(report: Report, problems: string[]): void {
  const run = parseRun(report.reproduce.run, '$.reproduce.run', problems, 'explore');
  if (run !== null) {
    compareLaunch(run, report.implementation.launch, '$.reproduce.run', problems);
    const shard = report.selection.shard;
    if ((intOf(run.last('seed')) ?? DEFAULT_SEED) !== report.seed) problems.push(`$.reproduce.run: --seed is ${run.last('seed') ?? DEFAULT_SEED} in the command, ${report.seed} in the report`);
    if ((run.last('shard') ?? null) !== (shard === null ? null : `${shard.index}/${shard.count}`)) problems.push(`$.reproduce.run: --shard does not match the report's shard`);
  }
  report.scenarios.forEach((s, i) => {
    const at = `$.scenarios[${i}].reproduce`;
    const cmd = parseRun(s.reproduce, at, problems, 'explore');
    if (cmd === null) return;
    compareLaunch(cmd, report.implementation.launch, at, problems);
    if (!/^\d+:[\d:]+$/.test(cmd.last('replay') ?? '')) problems.push(`${at}: does not replay one counterexample (--replay <seed>:<path>)`);
  });
}

// Only the flags that name the implementation or shape outcomes are read; others (added later) are skipped.
function parseRun(command: string, at: string, problems: string[], sub: 'run' | 'explore' = 'run'): ParsedRun | null {
  let tokens: string[];
  try {
    tokens = splitCommand(command);
  } catch (error) {
    problems.push(`${at}: ${(error as Error).message}`);
    return null;
  }
  const start = tokens[0] === 'npx' ? 1 : 0;
  if (tokens[start] !== 'ejc' || tokens[start + 1] !== sub) {
    problems.push(`${at}: is not an "ejc ${sub}" command: ${command}`);
    return null;
  }
  const values = new Map<string, string[]>();
  const rest = tokens.slice(start + 2);
  for (let i = 0; i < rest.length; i++) {
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(rest[i]!);
    if (match === null || !VALUE_FLAGS.has(match[1]!)) continue;
    const value = match[2] ?? rest[++i];
    if (value !== undefined) values.set(match[1]!, [...(values.get(match[1]!) ?? []), value]);
  }
  return { all: (name) => values.get(name) ?? [], last: (name) => values.get(name)?.at(-1) };
}

function compareLaunch(run: ParsedRun, launch: Launch, at: string, problems: string[]): void {
  const impl = run.last('impl');
  const cmd = run.last('cmd');
  if (launch.kind === 'command') {
    if (cmd !== launch.command || impl !== undefined) problems.push(`${at}: runs ${describe(impl, cmd)}, the report's implementation is --cmd ${JSON.stringify(launch.command)}`);
    return;
  }
  const module = launch.module === REFERENCE_MODULE ? undefined : launch.module;
  if (impl !== module || cmd !== undefined) problems.push(`${at}: runs ${describe(impl, cmd)}, the report's implementation is ${describe(module, undefined)}`);
  const options = Object.entries(launch.options).map(([k, v]) => `${k}=${v}`).sort();
  if (canonicalJson(run.all('impl-option').sort()) !== canonicalJson(options)) problems.push(`${at}: passes --impl-option ${JSON.stringify(run.all('impl-option'))}, the report's launch has ${JSON.stringify(options)}`);
}

function describe(impl: string | undefined, cmd: string | undefined): string {
  if (cmd !== undefined) return `--cmd ${JSON.stringify(cmd)}`;
  return impl === undefined ? 'the bundled reference journal' : `--impl ${JSON.stringify(impl)}`;
}

function intOf(text: string | undefined): number | undefined {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : text === undefined ? undefined : Number.NaN;
}
