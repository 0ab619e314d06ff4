// Progress while a run goes (one updating line on a terminal, plain lines in logs) and the summary after it.
import type { ProgressEvent } from '../harness/run-conformance.js';
import type { Report, ScenarioResult } from '../reports/schema.js';

export interface Progress {
  onProgress: (e: ProgressEvent) => void;
  /** Ends the updating line, if any, before other output follows. */
  finish: () => void;
}

/** A progress printer on `stream`: an updating line when it is a terminal outside CI, else one line per scenario. */
export function createProgress(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): Progress {
  const live = stream.isTTY === true && (env['CI'] === undefined || env['CI'] === '' || env['CI'] === 'false');
  const started = Date.now();
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
      if (BAD.has(e.verdict)) failures += 1;
    }
    if (live) {
      draw();
    } else if (e.kind === 'scenario-end') {
      stream.write(`[${e.index}/${e.total}] ${e.id} ${e.verdict} (${elapsed(e.durationMs)})\n`);
    }
  };
  const finish = (): void => {
    if (timer !== null) clearInterval(timer);
    clear();
  };
  return { onProgress, finish };
}

/** The human summary: verdict, per-verdict counts, the witness counts, and how to reproduce each failing scenario. */
export function summaryText(report: Report, reportPath: string | null): string {
  const s = report.summary;
  const c = report.counts;
  const lines = [
    `verdict: ${report.verdict}  (${report.implementation.name} ${report.implementation.version}, seed ${report.seed}, ${s.total} scenario(s), ${elapsed(report.durationMs)})`,
    ...[
      ['passed', s.passed],
      ['failed', s.failed],
      ['inconclusive', s.inconclusive],
      ['not applicable', s.notApplicable],
      ['expected failures', s.expectedFailures],
      ['stale expected failures', s.staleExpectedFailures],
    ].map(([label, n]) => `  ${String(label).padEnd(24)}${String(n).padStart(5)}`),
    ...(report.partial === undefined ? [] : [`partial: --bail stopped the run after ${report.partial.stoppedAfter}; ${report.partial.notRun.length} scenario(s) never ran`]),
    `counts: ${c.trials} trials · ${c.kills} kills · ${c.restarts} restarts · ${c.physicalWrites} physical writes · ${c.duplicateWrites} duplicate writes · ${c.restartWrites} restart writes`,
  ];
  const bad = report.scenarios.filter((x) => BAD.has(x.verdict));
  if (bad.length > 0) {
    lines.push('', 'not passing:');
    for (const x of bad) lines.push(`  ${x.id}  ${x.verdict}: ${why(x)}`, `    reproduce: ${x.reproduce}`);
  }
  lines.push('', reportPath === null ? 'report not written (use --out <dir>)' : `report: ${reportPath}`);
  lines.push(`outcomeDigest ${report.outcomeDigest}`, `verify: ${report.reproduce.verify}`);
  return `${lines.join('\n')}\n`;
}

const BAD = new Set(['failed', 'inconclusive', 'stale_expected_failure']);

function why(s: ScenarioResult): string {
  if (s.reason !== null) return s.reason;
  if (s.verdict === 'stale_expected_failure') return 'passes now; remove it from the expect-failures file';
  return s.trials.find((t) => t.inconclusiveReason !== null)?.inconclusiveReason ?? 'see the report';
}

function elapsed(ms: number): string {
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.floor(ms / 60_000)}m${Math.round((ms % 60_000) / 1000)}s`;
}
