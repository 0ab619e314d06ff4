// `ejc run`: turns flags into RunOptions, runs the conformance suite, writes the witness artifact and exits by verdict.
import { EjcError } from '../shared/errors.js';
import { parseShard } from '../harness/select-scenarios.js';
import { defaultJobs } from '../harness/pool.js';
import type { RunOptions } from '../runner/run-conformance.js';
import { toJUnit } from '../reports/junit.js';
import type { Launch } from '../reports/schema.js';
import { writeArtifact, writeReportFile } from '../reports/write-report.js';
import { checkTrialRoot } from '../harness/environment.js';
import { DIMENSIONS, dimensionAvailable } from '../harness/dimensions.js';
import { sqliteReader } from '../harness/secrets/sqlite-reader.js';
import { join, resolve } from 'node:path';
import { flag, intValue, parseCommand, stringValue, stringValues } from './args.js';
import type { Parsed } from './args.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { currentIds, readExpectFailures } from './expect-failures.js';
import { DEFAULT_SEED, DEFAULT_TIMEOUT_MS, MAX_JOBS, MAX_SEED, MAX_TIMEOUT_MS, helpText } from './help.js';
import { checkOutputs, refuseExistingReport, type InputFile, type OutputTarget } from './output-paths.js';
import { parseImplSecrets, publicArgv, type ParsedSecrets } from './secret-flags.js';
import { createProgress, harnessWarnings, summaryText } from './progress.js';
import { styleFor } from './colour.js';
import { checkRequirements, unmetRequirements } from './require.js';
import { inGitHubActions, workflowCommand } from '../reports/github-actions.js';
import { publishRunOutputs } from './run-outputs.js';
import { printMasked } from '../harness/masked-output.js';
import { readPrivateKey } from '../reports/sign-keys.js';
import { envelopePathFor } from '../reports/sign-statement.js';
import { writeSignature } from './cmd-sign.js';

export const RUN_FLAGS = {
  impl: { type: 'string' },
  'impl-option': { type: 'string', multiple: true },
  'impl-secret': { type: 'string', multiple: true },
  cmd: { type: 'string' },
  scenario: { type: 'string', multiple: true },
  tag: { type: 'string', multiple: true },
  seed: { type: 'string' },
  out: { type: 'string' },
  junit: { type: 'string' },
  shard: { type: 'string' },
  'expect-failures': { type: 'string' },
  timeout: { type: 'string' },
  jobs: { type: 'string' },
  bail: { type: 'boolean' },
  json: { type: 'boolean' },
  keep: { type: 'boolean' },
  'keep-failed': { type: 'boolean' },
  exclude: { type: 'string', multiple: true },
  transcript: { type: 'boolean' },
  html: { type: 'string' },
  require: { type: 'string', multiple: true },
  'impl-files': { type: 'string', multiple: true },
  sign: { type: 'string' },
  force: { type: 'boolean' },
} as const;

/** Runs `ejc run ...` and returns the exit code of the report's verdict. */
export async function runCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand('run', argv, RUN_FLAGS, { min: 0, max: 0 });
  if (flag(parsed, 'help')) {
    process.stdout.write(helpText('run'));
    return EXIT.ok;
  }
  const json = flag(parsed, 'json');
  // Flags and output paths are checked before the runner loads, so a mistake answers at once and loses no run.
  const { launch, ...options } = await runOptions(parsed, ['run', ...argv]);
  // The reference journal stores in SQLite through the optional better-sqlite3; a --cmd or --impl journal needs none.
  if (launch === null && sqliteReader() === null) {
    throw new EjcError('environment', 'the bundled reference journal needs better-sqlite3, an optional dependency of ejc that is not installed here (an install with --omit=optional, or a failed native build): install ejc without --omit=optional (or apt-get install python3 make g++ && npm rebuild better-sqlite3), or run your own journal with --impl or --cmd');
  }
  const required = checkRequirements(stringValues(parsed, 'require'));
  const out = stringValue(parsed, 'out');
  const junit = stringValue(parsed, 'junit');
  const html = stringValue(parsed, 'html');
  refuseExistingReport(out, flag(parsed, 'force'));
  await checkOutputs(runOutputs(out, junit, html), runInputs(parsed));
  await checkTrialRoot();
  // Said before the first trial too: a long run must not hide until its end that a dimension will be missing.
  for (const d of DIMENSIONS.filter((x) => !dimensionAvailable(x.id))) {
    process.stderr.write(`ejc: this machine lacks ${d.tool}: ${d.id} will not be tested (${d.install}; --require ${d.id} makes that an error)\n`);
  }
  // A bad signing key must fail before a long run, not after it.
  const signKey = await signingKey(parsed);
  const { runConformance, defaultLaunch } = await import('../runner/run-conformance.js');
  const progress = createProgress(process.stderr);
  let report;
  try {
    report = await runConformance({ ...options, launch: launch ?? defaultLaunch(), onProgress: progress.onProgress });
  } finally {
    progress.finish();
  }
  // Every output is attempted and the verdict is printed even when one fails: the run is not lost to a full disk.
  const failures: EjcError[] = [];
  const attempt = async <T>(write: () => Promise<T>): Promise<T | null> => {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof EjcError)) throw error;
      failures.push(error);
      return null;
    }
  };
  const reportPath = out === undefined ? null : await attempt(() => writeReportFile(out, report));
  if (signKey !== null && reportPath !== null) await attempt(() => writeSignature(envelopePathFor(reportPath), report, signKey));
  if (junit !== undefined) await attempt(() => writeArtifact(junit, toJUnit(report)));
  if (json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    for (const w of harnessWarnings(report)) process.stderr.write(`${w}\n`);
  } else {
    const intendedPath = out === undefined ? null : join(out, 'report.json');
    printMasked(process.stdout, summaryText(report, reportPath, { style: styleFor(process.stdout), kept: progress.kept, intendedPath }));
  }
  await attempt(() => publishRunOutputs(report, { reportPath, html: html ?? null, kept: progress.kept, annotations: json ? process.stderr : process.stdout }));
  for (const failure of failures) process.stderr.write(`ejc: ${failure.code}: ${failure.message}\n`);
  // A required capability the journal does not claim fails the gate: its scenarios did not run, whatever the verdict.
  const unmet = unmetRequirements(report, required);
  for (const message of unmet) {
    process.stderr.write(`ejc: requirement_unmet: ${message}\n`);
    if (inGitHubActions()) process.stdout.write(`${workflowCommand('error', { title: 'ejc: required capability not claimed' }, message)}\n`);
  }
  const code = failures.length > 0 ? EXIT.error : exitCodeFor(report);
  return unmet.length > 0 && code === EXIT.conformant ? EXIT.nonconformant : code;
}

function runOutputs(out: string | undefined, junit: string | undefined, html: string | undefined): OutputTarget[] {
  const targets: OutputTarget[] = [];
  if (out !== undefined) targets.push({ flag: '--out', given: out, dir: resolve(out), file: resolve(out, 'report.json') });
  if (junit !== undefined) targets.push({ flag: '--junit', given: junit, file: resolve(junit) });
  if (html !== undefined) targets.push({ flag: '--html', given: html, file: resolve(html) });
  return targets;
}

function runInputs(parsed: Parsed): InputFile[] {
  const inputs: InputFile[] = [];
  for (const name of ['expect-failures', 'impl'] as const) {
    const path = stringValue(parsed, name);
    if (path !== undefined) inputs.push({ flag: `--${name}`, path });
  }
  return inputs;
}

/** RunOptions from flags, with launch null for "the reference journal"; an inconsistency is a usage error saying what to change. */
export async function runOptions(parsed: Parsed, argv: string[]): Promise<Omit<RunOptions, 'launch'> & { launch: Launch | null }> {
  const shardText = stringValue(parsed, 'shard');
  const expectPath = stringValue(parsed, 'expect-failures');
  const expectFailures = expectPath === undefined ? new Set<string>() : await readExpectFailures(expectPath);
  if (flag(parsed, 'keep') && flag(parsed, 'keep-failed')) {
    throw new EjcError('usage', '--keep already keeps every trial directory; drop --keep-failed (or --keep)');
  }
  const seedText = stringValue(parsed, 'seed');
  const timeoutText = stringValue(parsed, 'timeout');
  const jobsText = stringValue(parsed, 'jobs');
  const out = stringValue(parsed, 'out');
  const { launch, secrets } = launchAndSecrets(parsed);
  return {
    launch,
    ...(secrets === null ? {} : { implSecrets: secrets.values }),
    ...(expectPath === undefined ? {} : { expectFailuresFile: expectPath }),
    excludePatterns: currentIds(stringValues(parsed, 'exclude')),
    transcripts: flag(parsed, 'transcript'),
    reportPath: out === undefined ? null : join(out, 'report.json'),
    scenarioPatterns: currentIds(stringValues(parsed, 'scenario')),
    tags: stringValues(parsed, 'tag'),
    seed: seedText === undefined ? DEFAULT_SEED : intValue('seed', seedText, 0, MAX_SEED),
    shard: shardText === undefined ? null : parseShard(shardText),
    expectFailures,
    keep: flag(parsed, 'keep') ? 'all' : flag(parsed, 'keep-failed') ? 'failed' : 'none',
    // Kept directories live beside the report, where nothing else cleans them, never in the shared temp directory.
    ...(out === undefined ? {} : { keepRoot: join(resolve(out), 'kept') }),
    timeoutMs: timeoutText === undefined ? DEFAULT_TIMEOUT_MS : intValue('timeout', timeoutText, 1, MAX_TIMEOUT_MS),
    jobs: jobsText === undefined ? Math.min(defaultJobs(), MAX_JOBS) : intValue('jobs', jobsText, 1, MAX_JOBS),
    // Recorded in the report as its reproduce command: secret values become the variables they are read from.
    bail: flag(parsed, 'bail'),
    implFiles: stringValues(parsed, 'impl-files'),
    argv: secrets === null ? argv : publicArgv(argv, secrets.sources),
  };
}

/** The implementation named by --impl/--impl-option or --cmd, or null for "the reference journal". */
export function launchFrom(parsed: Parsed): Launch | null {
  return launchAndSecrets(parsed).launch;
}

function launchAndSecrets(parsed: Parsed): { launch: Launch | null; secrets: ParsedSecrets | null } {
  const impl = stringValue(parsed, 'impl');
  const cmd = stringValue(parsed, 'cmd');
  const pairs = stringValues(parsed, 'impl-option');
  const secretPairs = stringValues(parsed, 'impl-secret');
  if (impl !== undefined && cmd !== undefined) throw new EjcError('usage', '--impl and --cmd both name the implementation; give one of them');
  if (pairs.length > 0 && impl === undefined) {
    throw new EjcError('usage', '--impl-option configures an --impl adapter module; a --cmd implementation takes its options in the command itself');
  }
  if (secretPairs.length > 0 && impl === undefined) {
    throw new EjcError('usage', '--impl-secret configures an --impl adapter module; a --cmd implementation reads its secrets from its own environment (set them before running ejc)');
  }
  if (cmd !== undefined && cmd.trim() === '') throw new EjcError('usage', '--cmd was given an empty command: give the command that starts the driver, e.g. --cmd "python3 driver.py"');
  if (cmd !== undefined) return { launch: { kind: 'command', command: cmd }, secrets: null };
  if (impl === undefined) return { launch: null, secrets: null };
  const entries = pairs.map((pair): [string, string] => {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new EjcError('usage', `--impl-option must look like key=value, got ${JSON.stringify(pair)}`);
    return [pair.slice(0, eq), pair.slice(eq + 1)];
  });
  const secrets = secretPairs.length === 0 ? null : parseImplSecrets(secretPairs, entries.map(([k]) => k));
  // fromEntries defines own data properties, so a "__proto__" key stays an ordinary option.
  const launch: Launch = { kind: 'module', module: impl, options: Object.fromEntries(entries), ...(secrets === null ? {} : { secretOptions: secrets.sources }) };
  return { launch, secrets };
}

// Read before the run: a missing or unsafe key fails at once.
async function signingKey(parsed: Parsed): Promise<Uint8Array | null> {
  const path = stringValue(parsed, 'sign');
  if (path === undefined) return null;
  if (stringValue(parsed, 'out') === undefined) throw new EjcError('usage', '--sign writes the signature beside the report: give --out <dir> too');
  return readPrivateKey(path);
}
