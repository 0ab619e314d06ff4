// Progress while a run goes (one updating line on a terminal, plain lines in logs) and the summary after it.
import type { ProgressEvent } from '../runner/run-conformance.js';
import { notApplicableByFamily } from '../reports/family.js';
import { failedAssertions, failedTrialRows, NOT_PASSING, stderrTail, whyNotPassing } from '../reports/failure-text.js';
import { gateOutcome } from '../reports/derive.js';
import { claimedScope, exclusionLines, verdictStatement } from '../reports/scope.js';
import { notTestedLines } from '../reports/not-tested.js';
import { describeCause, rootCauseHeadline, rootCauses } from '../reports/root-causes.js';

import type { Report, ScenarioResult } from '../reports/schema.js';
import { canRedraw, createStyle, styleFor, type Style } from './colour.js';

export interface Progress {
  onProgress: (e: ProgressEvent) => void;
  /** Ends the updating line, if any, before other output follows. */
  finish: () => void;
  /** The trial directories kept so far, by scenario id. */
  readonly kept: ReadonlyMap<string, readonly string[]>;
}

/** A progress printer on `stream`: an updating line on a terminal outside CI (not TERM=dumb), else one line per scenario. */
export function createProgress(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): Progress {
  const live = canRedraw(stream, env) && (env['CI'] === undefined || env['CI'] === '' || env['CI'] === 'false');
  const style = styleFor(stream, env);
  const started = Date.now();
  const kept = new Map<string, string[]>();
  let failures = 0;
  let done = 0;
  let total = 0;
  // With --jobs > 1 several scenarios run at once: the line names all of them, oldest first.
  const running = new Set<string>();
  let drawn = false;
  const draw = (): void => {
    if (total === 0) return;
    const line = `${done}/${total} done · ${elapsed(Date.now() - started)} · ${failures} failure(s) so far · running: ${[...running].join(', ') || '-'}`;
    // A line wider than the terminal wraps, and \r would then clear only its last row.
    stream.write(`\r\x1b[2K${line.slice(0, stream.columns > 20 ? stream.columns - 1 : 200)}`);
    drawn = true;
  };
  const clear = (): void => {
    if (drawn) stream.write('\r\x1b[2K');
    drawn = false;
  };
  // The elapsed time keeps moving during a long scenario; unref so the timer never holds the process open.
  const timer = live ? setInterval(draw, 1000) : null;
  timer?.unref();
  const onProgress = (e: ProgressEvent): void => {
    if (e.kind === 'kept') {
      kept.set(e.id, [...(kept.get(e.id) ?? []), e.dir]);
      clear();
      stream.write(`kept the trial directory of ${e.id}: ${e.dir}\n`);
      if (live) draw();
      return;
    }
    total = e.total;
    if (e.kind === 'scenario-start') running.add(e.id);
    else {
      running.delete(e.id);
      done = e.index;
      if (NOT_PASSING.has(e.verdict)) failures += 1;
    }
    if (live) {
      draw();
    } else if (e.kind === 'scenario-end') {
      stream.write(`[${e.index}/${e.total}] ${e.id} ${style.verdict(e.verdict)} (${elapsed(e.durationMs)})\n`);
    }
  };
  const finish = (): void => {
    if (timer !== null) clearInterval(timer);
    clear();
  };
  return { onProgress, finish, kept };
}

export interface SummaryOptions {
  readonly style?: Style;
  /** Kept trial directories by scenario id (from the progress printer). */
  readonly kept?: ReadonlyMap<string, readonly string[]>;
  /** Where the report was meant to go, so a failed write is named rather than silently missing. */
  readonly intendedPath?: string | null;
}

/** The human summary: verdict, counts, each not-passing scenario with its failed assertions, kept directory and reproduce command. */
export function summaryText(report: Report, reportPath: string | null, options: SummaryOptions = {}): string {
  const style = options.style ?? createStyle(false);

  const s = report.summary;
  const c = report.counts;
  const scope = report.scope ?? claimedScope(report.scenarios);
  const stated = verdictStatement(report.verdict, scope);
  // What the machine could not test comes first: a reader who stops at the verdict has seen it.
  const missing = notTestedLines(report.notTested ?? []);
  const lines = [
    ...missing.map((l, i) => (i === 0 ? style.bold(style.yellow(l)) : style.yellow(l))),
    ...(missing.length > 0 ? [''] : []),
    `verdict: ${style.bold(style.verdict(report.verdict, stated))}  (${report.implementation.name} ${report.implementation.version}, seed ${report.seed}, ${s.total} scenario(s), ${elapsed(report.durationMs)})`,
    ...(
      [
        ['passed', s.passed, 'passed'],
        ['failed', s.failed, 'failed'],
        ['inconclusive', s.inconclusive, 'inconclusive'],
        ['not applicable', s.notApplicable, 'not_applicable'],
        ['expected failures', s.expectedFailures, 'expected_failure'],
        ['stale expected failures', s.staleExpectedFailures, 'stale_expected_failure'],
      ] as const
    ).map(([label, n, verdict]) => `  ${n > 0 ? style.verdict(verdict, label.padEnd(24)) : label.padEnd(24)}${String(n).padStart(5)}`),
    ...(report.partial === undefined ? [] : [`partial: --bail stopped the run after ${report.partial.stoppedAfter}; ${report.partial.notRun.length} scenario(s) never ran`]),
    `counts: ${c.trials} trials · ${c.kills} kills · ${c.restarts} restarts · ${c.physicalWrites} physical writes · ${c.duplicateWrites} duplicate writes · ${c.restartWrites} restart writes`,
  ];
  // One deviation failing many scenarios reads as one finding: the root causes lead, before the scenarios they explain.
  const causes = rootCauses(report.scenarios);
  if (causes.length > 0) {
    lines.splice(1, 0, style.bold(rootCauseHeadline(causes)!));
    lines.push('', style.bold(`root cause${causes.length === 1 ? '' : 's'} (failed scenarios grouped by their first failing check):`));
    for (const [i, c] of causes.entries()) lines.push(`  ${i + 1}. ${describeCause(c)}`, `     ${c.scenarios.slice(0, 8).join(', ')}${c.scenarios.length > 8 ? `, … ${c.scenarios.length - 8} more` : ''}`);
  }
  const bad = report.scenarios.filter((x) => NOT_PASSING.has(x.verdict));
  if (bad.length > 0) {
    lines.push('', style.bold('not passing:'));
    for (const x of bad) lines.push(...failureLines(x, style, options.kept?.get(x.id) ?? []));
  }
  lines.push(...notApplicableLines(report, style));
  if (!scope.complete) {
    lines.push('', style.bold('not tested (excluded by the claims; the verdict holds for the claimed scope only):'));
    for (const l of exclusionLines(scope)) lines.push(`  ${l}`);
  }
  const known = report.scenarios.filter((x) => x.verdict === 'expected_failure');
  if (known.length > 0) {
    lines.push('', 'failing as expected (listed in --expect-failures; the journal still fails them):');
    for (const x of known) lines.push(`  ${x.id}: ${whyNotPassing(x)}`);
    if (gateOutcome(report.summary) === 'known_failures') lines.push('every failure is listed as expected: exit 0, the verdict stays nonconformant');
  }
  const intended = options.intendedPath ?? null;
  lines.push('', reportPath !== null ? `report: ${reportPath}` : intended !== null ? `report NOT written to ${intended} (see the error below)` : 'report not written (use --out <dir>)');

  lines.push(`outcomeDigest ${report.outcomeDigest}`, `verify: ${report.reproduce.verify}`);
  return `${lines.join('\n')}\n`;
}

/** The harness-side not-applicable groups as warnings, one line each (also printed where no summary is). */
export function harnessWarnings(report: Report): string[] {
  return [...notTestedLines(report.notTested ?? []).map((l, i) => (i === 0 ? `warning: ${l}` : l)), ...scenarioWarnings(report)];
}

function scenarioWarnings(report: Report): string[] {
  return notApplicableByFamily(report.scenarios)
    .filter((g) => g.harnessSide)
    .map((g) => `warning: ${g.count} ${g.family} scenario(s) did not run: ${g.reason}; this run proves nothing about them (--require makes a missing harness capability an error)`);
}

function failureLines(x: ScenarioResult, style: Style, kept: readonly string[]): string[] {
  const lines = [`  ${style.bold(x.id)}  ${style.verdict(x.verdict)}: ${whyNotPassing(x)}${x.spec === '' ? '' : style.dim(`  (${x.spec})`)}`];
  const failed = failedAssertions(x, 120);
  for (const a of failed.slice(0, 8)) {
    lines.push(`    ${style.red('✗')} ${a.name}`, `        expected: ${a.expected}`, `        actual:   ${a.actual}`, ...a.difference.map((l) => `        ${l}`));
  }
  if (failed.length > 8) lines.push(`    … and ${failed.length - 8} more failed assertion(s) in the report`);
  for (const l of failedTrialRows(x)) lines.push(`    ${l}`);
  if (x.verdict === 'inconclusive') for (const l of stderrTail(x, 3)) lines.push(style.dim(`    stderr: ${l}`));
  for (const dir of kept) lines.push(`    kept:      ${dir}`);
  lines.push(`    reproduce: ${x.reproduce}`);
  return lines;
}

function notApplicableLines(report: Report, style: Style): string[] {
  const groups = notApplicableByFamily(report.scenarios);
  if (groups.length === 0) return [];
  const width = Math.max(...groups.map((g) => g.family.length));
  const lines = ['', style.bold('not applicable:')];
  for (const g of groups) {
    const line = `  ${g.family.padEnd(width)}  ${String(g.count).padStart(3)} scenario(s): ${g.reason}`;
    lines.push(g.harnessSide ? style.yellow(`${line}  [harness-side]`) : style.dim(line));
  }
  return [...lines, ...scenarioWarnings(report).map((w) => style.yellow(w))];
}

function elapsed(ms: number): string {
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.floor(ms / 60_000)}m${Math.round((ms % 60_000) / 1000)}s`;
}
