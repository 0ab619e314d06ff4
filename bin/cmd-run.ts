// `ejc run`: turns flags into RunOptions, runs the conformance suite, writes the witness artifact and exits by verdict.
import { EjcError } from '../harness/errors.js';
import { parseShard } from '../harness/select-scenarios.js';
import { defaultJobs } from '../harness/pool.js';
import type { RunOptions } from '../harness/run-conformance.js';
import { toJUnit } from '../reports/junit.js';
import type { Launch } from '../reports/schema.js';
import { writeFileAtomic, writeReportFile } from '../reports/write-report.js';
import { flag, intValue, parseCommand, stringValue, stringValues } from './args.js';
import type { Parsed } from './args.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { readExpectFailures } from './expect-failures.js';
import { DEFAULT_SEED, DEFAULT_TIMEOUT_MS, helpText } from './help.js';
import { createProgress, summaryText } from './progress.js';

const RUN_FLAGS = {
  impl: { type: 'string' },
  'impl-option': { type: 'string', multiple: true },
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
} as const;

/** Runs `ejc run ...` and returns the exit code of the report's verdict. */
export async function runCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand('run', argv, RUN_FLAGS, { min: 0, max: 0 });
  if (flag(parsed, 'help')) {
    process.stdout.write(helpText('run'));
    return EXIT.ok;
  }
  const json = flag(parsed, 'json');
  // Flags are checked before the runner loads, so a typo answers at once.
  const { launch, ...options } = await runOptions(parsed, ['run', ...argv]);
  const { runConformance, defaultLaunch } = await import('../harness/run-conformance.js');
  const progress = createProgress(process.stderr);
  let report;
  try {
    report = await runConformance({ ...options, launch: launch ?? defaultLaunch(), onProgress: progress.onProgress });
  } finally {
    progress.finish();
  }
  const out = stringValue(parsed, 'out');
  const reportPath = out === undefined ? null : await writeReportFile(out, report);
  const junit = stringValue(parsed, 'junit');
  if (junit !== undefined) await writeFileAtomic(junit, toJUnit(report));
  process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : summaryText(report, reportPath));
  return exitCodeFor(report.verdict);
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
  return {
    launch: launchFrom(parsed),
    scenarioPatterns: stringValues(parsed, 'scenario'),
    tags: stringValues(parsed, 'tag'),
    seed: seedText === undefined ? DEFAULT_SEED : intValue('seed', seedText, 0),
    shard: shardText === undefined ? null : parseShard(shardText),
    expectFailures,
    keep: flag(parsed, 'keep') ? 'all' : flag(parsed, 'keep-failed') ? 'failed' : 'none',
    timeoutMs: timeoutText === undefined ? DEFAULT_TIMEOUT_MS : intValue('timeout', timeoutText, 1),
    jobs: jobsText === undefined ? defaultJobs() : intValue('jobs', jobsText, 1),
    bail: flag(parsed, 'bail'),
    argv,
  };
}

function launchFrom(parsed: Parsed): Launch | null {
  const impl = stringValue(parsed, 'impl');
  const cmd = stringValue(parsed, 'cmd');
  const pairs = stringValues(parsed, 'impl-option');
  if (impl !== undefined && cmd !== undefined) throw new EjcError('usage', '--impl and --cmd both name the implementation; give one of them');
  if (pairs.length > 0 && impl === undefined) {
    throw new EjcError('usage', '--impl-option configures an --impl adapter module; a --cmd implementation takes its options in the command itself');
  }
  if (cmd !== undefined) return { kind: 'command', command: cmd };
  if (impl === undefined) return null;
  const entries = pairs.map((pair): [string, string] => {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new EjcError('usage', `--impl-option must look like key=value, got ${JSON.stringify(pair)}`);
    return [pair.slice(0, eq), pair.slice(eq + 1)];
  });
  // fromEntries defines own data properties, so a "__proto__" key stays an ordinary option.
  return { kind: 'module', module: impl, options: Object.fromEntries(entries) };
}
