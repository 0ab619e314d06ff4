// `ejc verify --rerun`: re-runs a report's settings through the harness API with an implementation the auditor names.
import { existsSync } from 'node:fs';
import { EjcError } from '../shared/errors.js';
import { defaultJobs } from '../harness/pool.js';
import { REFERENCE_MODULE } from '../reports/fingerprint.js';
import { compareRerun } from '../reports/rerun-diff.js';
import type { Launch, Report } from '../reports/schema.js';
import { isExploration } from '../reports/verify-binding.js';
import { verifyReport } from '../reports/verify.js';
import { flag, intValue, stringValue, stringValues, type Parsed } from './args.js';
import { launchFrom } from './cmd-run.js';
import { currentIds } from './expect-failures.js';
import { EXIT } from './exit-codes.js';
import { createProgress } from './progress.js';

/**
 * Re-runs the report's seed, selection and settings and compares outcomes scenario by scenario. What
 * runs is the auditor's choice: --impl/--cmd, or the bundled reference journal when the report names
 * it. The report's own command runs only with --accept-report-command, and is printed first.
 */
export async function rerunReport(report: Report, parsed: Parsed): Promise<number> {
  // An exploration's trial count may have been set by a time budget, so its settings do not fix what ran; each
  // trial's own command replays exactly that trial, and the run command explores again from the same seed.
  if (isExploration(report)) {
    throw new EjcError(
      'usage',
      `verify --rerun re-runs ejc run reports; this is an ejc explore report. Explore again from its seed with: ${report.reproduce.run}` +
        ' (or replay one generated trial with the reproduce command its scenario entry prints)',
    );
  }
  const { launch, why } = chooseLaunch(report, parsed);
  const implFiles = implFilesFor(report, parsed);
  const jobsText = stringValue(parsed, 'jobs');
  process.stderr.write(`rerunning ${why} with the report's settings: seed ${report.seed}, ${describeSelection(report)}, timeout ${report.settings.timeoutMs} ms\n`);
  const { runConformance } = await import('../runner/run-conformance.js');
  const progress = createProgress(process.stderr);
  let fresh: Report;
  try {
    fresh = await runConformance({
      launch,
      scenarioPatterns: currentIds(report.selection.scenarios),
      tags: [...report.selection.tags],
      excludePatterns: currentIds(report.selection.exclude ?? []),
      seed: report.seed,
      shard: report.selection.shard,
      expectFailures: new Set(currentIds(report.settings.expectFailures)),
      keep: 'none',
      timeoutMs: report.settings.timeoutMs,
      jobs: jobsText === undefined ? defaultJobs() : intValue('jobs', jobsText, 1),
      implFiles,
      familySettings: report.settings.families,
      argv: ['run'],
      onProgress: progress.onProgress,
    });
  } finally {
    progress.finish();
  }
  const self = verifyReport(fresh);
  if (!self.ok) throw new EjcError('internal', `the rerun's own report does not verify: ${self.problems[0]}`);
  const cmp = compareRerun(report, fresh);
  const lines: string[] = [];
  if (cmp.sameOutcome) lines.push(`rerun reproduces the outcome digest ${report.outcomeDigest}`);
  else lines.push(`rerun does not reproduce the outcome digest (report ${report.outcomeDigest}, rerun ${fresh.outcomeDigest}):`, ...cmp.outcomeDifferences.map((d) => `  ${d}`));
  if (cmp.fingerprintProblems.length > 0) lines.push(`the implementation that ran is not the one the report names (fingerprint ${report.fingerprint.digest}, now ${fresh.fingerprint.digest}):`, ...cmp.fingerprintProblems.map((d) => `  ${d}`));
  else lines.push(`the implementation files match the report's fingerprint${cmp.fingerprintNotes.length > 0 ? ' except the executable:' : ` ${report.fingerprint.digest}`}`);
  lines.push(...cmp.fingerprintNotes.map((d) => `  note: ${d} (another build of the interpreter; the implementation's own files match)`));
  process.stdout.write(`${lines.join('\n')}\n`);
  return cmp.sameOutcome && cmp.fingerprintProblems.length === 0 ? EXIT.ok : EXIT.problems;
}

function chooseLaunch(report: Report, parsed: Parsed): { launch: Launch; why: string } {
  const own = launchFrom(parsed);
  const recorded = report.implementation.launch;
  if (own !== null) {
    if (flag(parsed, 'accept-report-command')) throw new EjcError('usage', '--accept-report-command runs the report\'s implementation; with --impl or --cmd you name your own: give one or the other');
    return { launch: own, why: own.kind === 'command' ? `your --cmd ${JSON.stringify(own.command)}` : `your --impl ${own.module}` };
  }
  // The bundled journal is this installation's own code: naming it in a report runs nothing of the report's.
  if (recorded.kind === 'module' && recorded.module === REFERENCE_MODULE) return { launch: recorded, why: 'the bundled reference journal (as the report names it)' };
  const shown = recorded.kind === 'command' ? `--cmd ${JSON.stringify(recorded.command)}` : `--impl ${JSON.stringify(recorded.module)}${Object.keys(recorded.options).length > 0 ? ` with options ${JSON.stringify(recorded.options)}` : ''}`;
  if (flag(parsed, 'accept-report-command')) {
    process.stderr.write(`running the implementation as the report names it (--accept-report-command): ${shown}\n`);
    return { launch: recorded, why: `the report's ${shown}` };
  }
  process.stdout.write(`the report names its implementation as: ${shown}\n`);
  throw new EjcError(
    'usage',
    'verify --rerun does not run what a report names: pass your copy of the implementation with --impl <module> or --cmd <command>, ' +
      'or, having read the command above, --accept-report-command to run it as written',
  );
}

// The report's loaded files, by their recorded paths, are bound again unless the auditor names others.
function implFilesFor(report: Report, parsed: Parsed): string[] {
  const given = stringValues(parsed, 'impl-files');
  if (given.length > 0) return given;
  return report.fingerprint.files.filter((f) => f.role === 'loaded' && !f.path.startsWith('ejc:') && existsSync(f.path)).map((f) => escapeGlob(f.path));
}

function escapeGlob(path: string): string {
  return /[*?{[]/.test(path) ? path.replace(/[*?{[]/g, '?') : path;
}

function describeSelection(report: Report): string {
  const parts = [
    report.selection.scenarios.length > 0 ? `scenarios ${report.selection.scenarios.join(' ')}` : 'every scenario',
    ...(report.selection.tags.length > 0 ? [`tags ${report.selection.tags.join(' ')}`] : []),
    ...(report.selection.shard === null ? [] : [`shard ${report.selection.shard.index}/${report.selection.shard.count}`]),
    ...(report.settings.expectFailures.length > 0 ? [`${report.settings.expectFailures.length} expected failure(s)`] : []),
  ];
  return parts.join(', ');
}
