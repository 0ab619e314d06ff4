// GitHub Actions output: an ::error annotation per not-passing scenario, ::warning for harness-side gaps, and the step summary.
import { notApplicableByFamily } from './family.js';
import { failedAssertions, NOT_PASSING, whyNotPassing } from './failure-text.js';
import type { Report, ScenarioResult } from './schema.js';
import { claimedScope, exclusionLines, exclusionReason, verdictStatement } from './scope.js';
import { describeCause, rootCauseHeadline, rootCauses } from './root-causes.js';

/** Whether this process runs as a GitHub Actions step. */
export function inGitHubActions(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['GITHUB_ACTIONS'] === 'true';
}

/** Escapes a workflow command's message: %, CR and LF would otherwise end or corrupt the command. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow command property value: also `:` and `,`, which separate properties. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One workflow command line (`::error title=...::message`). */
export function workflowCommand(command: 'error' | 'warning' | 'notice', properties: Record<string, string>, message: string): string {
  const props = Object.entries(properties).map(([k, v]) => `${k}=${escapeProperty(v)}`).join(',');
  return `::${command}${props === '' ? '' : ` ${props}`}::${escapeData(message)}`;
}

/** The annotation of one not-passing scenario: why, its failed assertions, the kept directory and the reproduce command. */
export function scenarioAnnotation(s: ScenarioResult, kept: readonly string[] = []): string {
  const lines = [`${s.id} ${s.verdict}: ${whyNotPassing(s)}`];
  for (const a of failedAssertions(s, 200).slice(0, 5)) lines.push(`✗ ${a.name}: expected ${a.expected}, actual ${a.actual}`);
  for (const dir of kept) lines.push(`kept: ${dir}`);
  lines.push(`reproduce: ${s.reproduce}`);
  return workflowCommand('error', { title: `ejc ${s.verdict}: ${s.id}` }, lines.join('\n'));
}

/** Every annotation of a report, one line each. */
export function annotationLines(report: Report, kept: ReadonlyMap<string, readonly string[]> = new Map()): string[] {
  const errors = report.scenarios.filter((s) => NOT_PASSING.has(s.verdict)).map((s) => scenarioAnnotation(s, kept.get(s.id) ?? []));
  const warnings = notApplicableByFamily(report.scenarios)
    .filter((g) => g.harnessSide)
    .map((g) => workflowCommand('warning', { title: `ejc: ${g.family} not run` }, `${g.count} ${g.family} scenario(s) did not run: ${g.reason}. The run proves nothing about them; --require makes this an error.`));
  const scope = report.scope ?? claimedScope(report.scenarios);
  // Only a conformant verdict can be read as more than it is; a failing run's exclusions are in its step summary.
  const claimed = scope.excluded.filter((g) => g.by === 'journal' && report.verdict === 'conformant').map((g, i, all) => workflowCommand('warning', { title: `ejc ${report.verdict} for the claimed scope only` }, `${exclusionLines({ complete: false, excluded: all })[i]}. The verdict says nothing about them.`));
  const machine = (report.notTested ?? []).map((e) => workflowCommand('warning', { title: `ejc: ${e.dimension} not tested` }, `no ${e.tool} on this runner: ${e.untested} was not tested. Install: ${e.install}; --require ${e.dimension} makes this an error.`));
  return [...errors, ...machine, ...warnings, ...claimed];
}

// GitHub caps a step summary at 1 MiB; a long failure list is cut well before that.
const MAX_LISTED = 50;

/** The markdown step summary: verdict, counts, and each not-passing scenario with its assertions and reproduce command. */
export function stepSummary(report: Report, reportPath: string | null): string {
  const s = report.summary;
  const scope = report.scope ?? claimedScope(report.scenarios);
  const mark = report.verdict === 'conformant' ? '✅' : report.verdict === 'nonconformant' ? '❌' : '⚠️';
  const lines = [
    `## ${mark} ejc conformance: ${html(verdictStatement(report.verdict, scope))}`,
    '',
    `${code(`${report.implementation.name} ${report.implementation.version}`)} · seed ${report.seed} · ${s.total} scenario(s) · ${report.counts.trials} trials · ${report.counts.kills} kills`,
    '',
    '| passed | failed | inconclusive | not applicable | expected failures | stale expected failures |',
    '|---:|---:|---:|---:|---:|---:|',
    `| ${s.passed} | ${s.failed} | ${s.inconclusive} | ${s.notApplicable} | ${s.expectedFailures} | ${s.staleExpectedFailures} |`,
  ];
  const missing = report.notTested ?? [];
  if (missing.length > 0) {
    lines.push('', '### ⚠️ Not tested on this machine', '', 'The runner lacked these tools; the verdict says nothing about what only they could show.', '', '| dimension | not tested | install |', '|---|---|---|');
    for (const e of missing) lines.push(`| ${code(e.dimension)} | ${cell(e.untested)} | ${code(e.install)} |`);
  }
  const causes = rootCauses(report.scenarios);
  if (causes.length > 0) {
    lines.splice(2, 0, `**${html(rootCauseHeadline(causes)!)}**`, '');
    lines.push('', `### Root cause${causes.length === 1 ? '' : 's'}`, '', 'Failed scenarios grouped by their first failing check.', '', '| # | check | scenarios | only on it |', '|---:|---|---:|---:|');
    for (const [i, c] of causes.entries()) lines.push(`| ${i + 1} | ${cell(describeCause(c))} | ${c.scenarios.length} | ${c.only.length} |`);
  }
  const bad = report.scenarios.filter((x) => NOT_PASSING.has(x.verdict));
  if (bad.length > 0) {
    lines.push('', '### Not passing', '');
    for (const x of bad.slice(0, MAX_LISTED)) lines.push(...scenarioSection(x));
    if (bad.length > MAX_LISTED) lines.push(`… and ${bad.length - MAX_LISTED} more: see the report.`, '');
  }
  const na = notApplicableByFamily(report.scenarios);
  if (na.length > 0) {
    lines.push('', '### Not applicable', '', '| family | scenarios | reason |', '|---|---:|---|');
    for (const g of na) lines.push(`| ${code(g.family)} | ${g.count} | ${cell(g.reason)}${g.harnessSide ? ' ⚠️ harness-side' : ''} |`);
  }
  if (!scope.complete) {
    lines.push('', '### Not tested: excluded by the claims', '', 'The verdict holds for the claimed scope only.', '', '| capability | scenarios | families | because |', '|---|---:|---|---|');
    for (const g of scope.excluded) lines.push(`| ${code(g.capability)} | ${g.count} | ${cell(g.families.join(', '))} | ${cell(exclusionReason(g))} |`);
  }
  lines.push('', reportPath === null ? 'Report not written (no `--out`).' : `Report: ${code(reportPath)} · verify with ${code(report.reproduce.verify)}`);
  lines.push(`Outcome digest ${code(report.outcomeDigest)}`, '');
  return `${lines.join('\n')}\n`;
}

function scenarioSection(x: ScenarioResult): string[] {
  const lines = [`<details><summary>${html(x.id)} — ${html(x.verdict)}: ${html(whyNotPassing(x))}</summary>`, ''];
  const failed = failedAssertions(x, 200);
  if (failed.length > 0) {
    lines.push('| assertion | expected | actual |', '|---|---|---|');
    for (const a of failed.slice(0, 10)) lines.push(`| ${cell(a.name)} | ${code(a.expected)} | ${code(a.actual)} |`);
    lines.push('');
  }
  if (x.spec !== '') lines.push(`Contract: ${html(x.spec)}`, '');
  lines.push(fence(x.reproduce), '', '</details>', '');
  return lines;
}

// A fence one backtick longer than any run inside, so a command can never close it early.
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}sh\n${text}\n${ticks}`;
}

function code(text: string): string {
  return `<code>${html(text)}</code>`;
}

function cell(text: string): string {
  return html(text).replace(/\n/g, ' ');
}

// HTML-escaped, and markdown's own markup characters as entities, so a value renders as the text it is.
function html(text: string): string {
  return text.replace(/[&<>"*_`[\]\\~|]/g, (c) => `&#${c.charCodeAt(0)};`);
}
