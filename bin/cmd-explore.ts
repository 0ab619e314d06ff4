// `ejc explore`: generated workloads and crash schedules against an implementation, checked by the model, the first violation shrunk.
import { EjcError } from '../shared/errors.js';
import { zeroCounts, type Report } from '../reports/schema.js';
import { toJUnit } from '../reports/junit.js';
import { writeFileAtomic, writeReportFile } from '../reports/write-report.js';
import { flag, intValue, parseCommand, stringValue } from './args.js';
import { runOptions } from './cmd-run.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { helpText } from './help.js';
import { refuseExistingReport } from './output-paths.js';
import { createExploreProgress } from './explore-progress.js';
import type { ExploreProgress } from '../harness/explore/run-explore.js';
import { exploreSummary, type ShrinkTally } from './explore-summary.js';

const EXPLORE_FLAGS = {
  impl: { type: 'string' },
  'impl-option': { type: 'string', multiple: true },
  cmd: { type: 'string' },
  trials: { type: 'string' },
  budget: { type: 'string' },
  seed: { type: 'string' },
  jobs: { type: 'string' },
  shard: { type: 'string' },
  'max-shrinks': { type: 'string' },
  replay: { type: 'string' },
  machine: { type: 'string' },
  profile: { type: 'string' },
  out: { type: 'string' },
  junit: { type: 'string' },
  timeout: { type: 'string' },
  json: { type: 'boolean' },
  keep: { type: 'boolean' },
  'keep-failed': { type: 'boolean' },
  force: { type: 'boolean' },
} as const;

/** The default number of trials when neither --trials nor --budget is given. */
export const DEFAULT_TRIALS = 100;
/** With --budget and no --trials: the stream's length (a budget ends long before it). */
export const BUDGET_TRIAL_CAP = 100_000;
/** The default number of real trials the shrinking may run. */
export const DEFAULT_MAX_SHRINKS = 40;

/** Runs `ejc explore ...` and returns the exit code of the report's verdict. */
export async function exploreCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand('explore', argv, EXPLORE_FLAGS, { min: 0, max: 0 });
  if (flag(parsed, 'help')) {
    process.stdout.write(helpText('explore'));
    return EXIT.ok;
  }
  refuseExistingReport(stringValue(parsed, 'out'), flag(parsed, 'force'));
  const base = await runOptions(parsed, ['explore', ...argv]);
  const budgetText = stringValue(parsed, 'budget');
  const trialsText = stringValue(parsed, 'trials');
  const replayText = stringValue(parsed, 'replay');
  const machineText = stringValue(parsed, 'machine');
  if (replayText !== undefined && (trialsText !== undefined || budgetText !== undefined || base.shard !== null)) {
    throw new EjcError('usage', '--replay runs exactly one counterexample; drop --trials, --budget and --shard');
  }
  if (machineText !== undefined && replayText === undefined) throw new EjcError('usage', '--machine only describes where a --replay counterexample was found; give --replay too');
  const { exploreConformance } = await import('../harness/explore/run-explore.js');
  const { defaultLaunch } = await import('../runner/run-conformance.js');
  const json = flag(parsed, 'json');
  const progress = createExploreProgress(process.stderr);
  // What the shrinking ran: its trials are not the report's, so the summary counts them apart.
  const shrinking: ShrinkTally = { trials: 0, max: 0, counts: zeroCounts() };
  const onProgress = (e: ExploreProgress): void => {
    if (e.kind === 'shrink') {
      shrinking.trials = e.step;
      shrinking.max = e.max;
      for (const k of Object.keys(e.counts) as Array<keyof typeof e.counts>) shrinking.counts[k] += e.counts[k];
    }
    progress.onProgress(e);
  };
  let report: Report;
  try {
    report = await exploreConformance({
      launch: base.launch ?? defaultLaunch(),
      timeoutMs: base.timeoutMs,
      seed: base.seed,
      trials: trialsText === undefined ? (budgetText === undefined ? DEFAULT_TRIALS : BUDGET_TRIAL_CAP) : intValue('trials', trialsText, 1),
      budgetMs: budgetText === undefined ? null : parseBudget(budgetText),
      jobs: base.jobs ?? 1,
      shard: base.shard,
      maxShrinks: intValue('max-shrinks', stringValue(parsed, 'max-shrinks') ?? String(DEFAULT_MAX_SHRINKS), 0),
      profile: parseProfile(stringValue(parsed, 'profile')),
      keep: base.keep,
      ...(base.keepRoot === undefined ? {} : { keepRoot: base.keepRoot }),
      replay: replayText === undefined ? null : parseReplay(replayText, machineText),
      argv: ['explore', ...argv],
      onProgress,
    });
  } finally {
    progress.finish();
  }
  const out = stringValue(parsed, 'out');
  const reportPath = out === undefined ? null : await writeReportFile(out, report);
  const junit = stringValue(parsed, 'junit');
  if (junit !== undefined) await writeFileAtomic(junit, toJUnit(report));
  process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : exploreSummary(report, reportPath, shrinking));
  return exitCodeFor(report);
}

/** The generation profile: mixed (default), runs (no sessions) or dimensions (shared ids, look-alike values). */
export function parseProfile(text: string | undefined): 'mixed' | 'runs' | 'dimensions' {
  if (text === undefined || text === 'mixed' || text === 'runs' || text === 'dimensions') return text ?? 'mixed';
  throw new EjcError('usage', `--profile must be mixed, runs or dimensions, got ${JSON.stringify(text)}`);
}

/** `60s`, `5m`, `1h`, `1500ms` or plain seconds. */
export function parseBudget(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw new EjcError('usage', `--budget must be a duration like 60s, 5m or 1h, got ${JSON.stringify(text)}`);
  const n = Number(m[1]);
  const unit = m[2] ?? 's';
  const ms = unit === 'ms' ? n : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n * 3_600_000;
  if (ms < 1) throw new EjcError('usage', `--budget must be positive, got ${JSON.stringify(text)}`);
  return Math.round(ms);
}

/** `<seed>:<path>` as a report prints it (the seed unsigned, the path fast-check's), with the machine it needs. */
export function parseReplay(text: string, machine: string | undefined): { seed: number; path: string; machine: { strace: boolean; faketime: boolean } } {
  const m = /^(\d+):(\d+(?::\d+)*)$/.exec(text.trim());
  if (!m || Number(m[1]) > 0xffffffff) throw new EjcError('usage', `--replay must be <seed>:<path> as the report prints it (e.g. 3141592653:0:2:1), got ${JSON.stringify(text)}`);
  const parts = (machine ?? 'none').split('+').filter((p) => p !== '' && p !== 'none');
  const unknown = parts.filter((p) => p !== 'strace' && p !== 'faketime');
  if (unknown.length > 0) throw new EjcError('usage', `--machine lists strace and/or faketime joined by +, or none; got ${JSON.stringify(machine)}`);
  return { seed: Number(m[1]) | 0, path: m[2]!, machine: { strace: parts.includes('strace'), faketime: parts.includes('faketime') } };
}
