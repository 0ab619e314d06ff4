// The human summary of an exploration: verdict, what the trials (and the shrinking's) did, the counterexample and its replay.
import { notTestedLines } from '../reports/not-tested.js';
import type { Counts, Report } from '../reports/schema.js';

/** What the shrinking ran: real trials that are not the report's own (only its result is), with their counts summed. */
export interface ShrinkTally {
  trials: number;
  /** The cap on them (--max-shrinks). */
  max: number;
  counts: Counts;
}

/** The human summary: verdict, trials and kills, and for a violation the counterexample with its one replay command. */
export function exploreSummary(report: Report, reportPath: string | null, shrinking: ShrinkTally | null = null): string {
  const c = report.counts;
  const s = report.summary;
  const missing = notTestedLines(report.notTested ?? []);
  const lines = [
    ...missing,
    ...(missing.length > 0 ? [''] : []),
    `verdict: ${report.verdict}  (${report.implementation.name} ${report.implementation.version}, seed ${report.seed}, ${c.trials} generated trial(s))`,
    `  passed ${s.passed} · failed ${s.failed} · inconclusive ${s.inconclusive}`,
    `counts: ${countsText(c, `the report's ${c.trials} trial(s)`)}`,
  ];
  if (shrinking !== null && shrinking.trials > 0) {
    const capped = shrinking.trials >= shrinking.max;
    lines.push(`shrinking: ${shrinking.trials} more trial(s)${capped ? `, its cap (--max-shrinks ${shrinking.max}) reached: a higher cap may shrink further` : ''}; ${countsText(shrinking.counts, 'them')}`);
  }
  const section = (report.sections['explore'] ?? {}) as Record<string, { counterexample?: Counterexample | null; replayFailedAgain?: boolean; shrinkTrials?: number }>;
  const shrunkId = Object.keys(section).find((id) => id.endsWith('.shrunk')) ?? Object.keys(section).find((id) => section[id]?.counterexample);
  const entry = shrunkId === undefined ? undefined : section[shrunkId];
  const cx = entry?.counterexample;
  if (cx) {
    lines.push('', `counterexample (${shrunkId}${entry?.shrinkTrials !== undefined ? `, shrunk in ${entry.shrinkTrials} trial(s)` : ''}):`, `  clause:   ${cx.clause} — ${cx.contract}`, `  at:       step ${cx.step}: ${cx.what}`, `  expected: ${JSON.stringify(cx.expected)}`, `  observed: ${JSON.stringify(cx.observed)}`, '  steps:');
    for (const st of cx.steps.slice(-25)) lines.push(`    ${String(st.step).padStart(4)}. ${st.text}`);
    if (entry?.replayFailedAgain === false) lines.push('  note: the replay of this counterexample passed once: the failure depends on timing (a race)');
    lines.push(`  replay:   ${cx.replay}`);
  }
  for (const x of report.scenarios.filter((x) => x.verdict === 'inconclusive').slice(0, 3)) lines.push(`inconclusive ${x.id}: ${x.reason ?? ''}`, `  reproduce: ${x.reproduce}`);
  lines.push('', reportPath === null ? 'report not written (use --out <dir>)' : `report: ${reportPath}`, `outcomeDigest ${report.outcomeDigest}`);
  return `${lines.join('\n')}\n`;
}

// A row of zeros reads as if nothing ran; trials that stopped before any kill or dispatch say so in words.
function countsText(c: Counts, whose: string): string {
  const shown: Array<[number, string]> = [[c.kills, 'kills'], [c.restarts, 'restarts'], [c.dispatchAttempts, 'dispatch attempts'], [c.physicalWrites, 'physical writes'], [c.duplicateWrites, 'duplicate writes'], [c.bytesScanned, 'bytes scanned']];
  if (shown.every(([n]) => n === 0)) return `none of ${whose} reached a kill, a restart, a dispatch, a target write or a byte scan`;
  return shown.map(([n, label]) => `${n} ${label}`).join(' · ');
}

interface Counterexample {
  replay: string;
  clause: string;
  contract: string;
  what: string;
  expected: unknown;
  observed: unknown;
  step: number;
  steps: Array<{ step: number; text: string }>;
}
