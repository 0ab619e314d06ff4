// The self-contained HTML page of a report: what failed first (root causes, failed scenarios with their timelines), passes folded, then the rest.
import { createHash } from 'node:crypto';
import { maskText } from '../shared/secrets/mask.js';
import { scenarioFamily } from './family.js';
import { arr, esc, obj, str, token, type Loose } from './html-parts.js';
import { countsList, footer, header, implementationSection, notTestedSection, otherFields, problemsBanner, rootCauseSection, scopeOf, scopeSection, sectionsHtml } from './html-overview.js';
import { NOT_PASSING_VERDICTS, scenarioHtml, scenarioLine } from './html-scenario.js';
import { PAGE_SCRIPT, pageStyle } from './html-style.js';

/** Options for the page: the verify problems to show in a banner (none when the report verified). */
export interface HtmlOptions {
  readonly problems?: readonly string[];
}

const VERDICTS = ['failed', 'stale_expected_failure', 'inconclusive', 'expected_failure', 'passed', 'not_applicable'];
// Fields the page lays out itself; anything else a report carries is shown as it is, so newer fields are never hidden.
const KNOWN_TOP = new Set(['schema', 'implementation', 'harness', 'seed', 'selection', 'startedAt', 'finishedAt', 'durationMs', 'verdict', 'summary', 'counts', 'scenarios', 'sections', 'reproduce', 'boundary', 'scope', 'notTested', 'outcomeDigest', 'contentHash']);

/**
 * Renders a parsed report (read defensively: fields may be missing or newer than this code) as one
 * HTML page with no external resources; a Content-Security-Policy allows only its own style and script.
 * Scenarios that did not pass come first and in full; passing ones are one line each inside a fold (their
 * timelines stay in the report's JSON), so the page of a large passing run stays small.
 * Masked like every artifact the harness writes (the implementation's stderr may carry anything).
 */
export function reportHtml(report: unknown, options: HtmlOptions = {}): string {
  const r = obj(report);
  const scenarios = arr(r['scenarios']).map(obj);
  const families = [...new Set(scenarios.map((s) => scenarioFamily(str(s['id'], '?'))))];
  const verdict = str(r['verdict'], 'unknown');
  const impl = obj(r['implementation']);
  const title = `ejc ${verdict}: ${str(impl['name'], 'implementation')} ${str(impl['version'])}`.trim();
  const style = pageStyle(VERDICTS, families);
  const csp = `default-src 'none'; style-src '${sha256(style)}'; script-src '${sha256(PAGE_SCRIPT)}'; img-src data:; base-uri 'none'; form-action 'none'`;
  const body = [
    header(r, verdict, impl),
    '<main>',
    problemsBanner(options.problems ?? []),
    rootCauseSection(scenarios),
    filters(scenarios, families),
    scenarioSections(scenarios, counterexamples(r)),
    notTestedSection(r['notTested']),
    '<section id="run"><h2>This run</h2>',
    countsList(r),
    '</section>',
    scopeSection(scopeOf(scenarios)),
    implementationSection(r, impl),
    otherFields(r, KNOWN_TOP),
    sectionsHtml(r),
    footer(r),
    '</main>',
  ].join('\n');
  return maskText(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${esc(csp)}">
<title>${esc(title)}</title>
<style>${style}</style>
</head>
<body>
${body}
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`);
}

// Not passing first and in full; expected failures in full but closed; passing and not applicable ones folded, a line each.
function scenarioSections(scenarios: Loose[], cx: Map<string, unknown>): string {
  const verdictOf = (s: Loose): string => str(s['verdict'], 'unknown');
  const bad = scenarios.filter((s) => NOT_PASSING_VERDICTS.has(verdictOf(s)));
  const expected = scenarios.filter((s) => verdictOf(s) === 'expected_failure');
  const rest = scenarios.filter((s) => !bad.includes(s) && !expected.includes(s));
  const full = (s: Loose): string => scenarioHtml(s, cx.get(str(s['id'])));
  const failedOnly = bad.every((s) => verdictOf(s) === 'failed');
  const parts = ['<section id="scenarios">'];
  if (bad.length > 0) parts.push(`<h2 id="failures">${failedOnly ? 'Failed' : 'Failed or undecided'}: ${bad.length} scenario(s)</h2>`, bad.map(full).join('\n'));
  if (expected.length > 0) parts.push(`<h2>Expected failures: ${expected.length} scenario(s)</h2>`, expected.map(full).join('\n'));
  const passed = rest.filter((s) => verdictOf(s) === 'passed').length;
  if (rest.length > 0) {
    const what = [passed > 0 ? `${passed} passed` : '', rest.length > passed ? `${rest.length - passed} not applicable` : ''].filter((x) => x !== '').join(', ');
    parts.push(`<details class="passes"${bad.length === 0 && expected.length === 0 && rest.length <= 12 ? ' open' : ''}><summary><h2>${esc(what)}</h2> <span class="muted">one line each; every trial's timeline, assertions and rows are in the report's JSON</span></summary><ul class="scenario-lines">${rest.map(scenarioLine).join('')}</ul></details>`);
  }
  parts.push('</section>');
  return parts.join('\n');
}

// An exploration's counterexamples live in its `explore` section, by scenario id (ejc explore and the run's explore family).
function counterexamples(r: Loose): Map<string, unknown> {
  const section = obj(obj(r['sections'])['explore']);
  return new Map(Object.entries(section).flatMap(([id, v]) => (obj(v)['counterexample'] == null ? [] : [[id, obj(v)['counterexample']] as [string, unknown]])));
}

function filters(scenarios: Loose[], families: string[]): string {
  const byVerdict = (v: string): number => scenarios.filter((s) => s['verdict'] === v).length;
  const byFamily = (f: string): number => scenarios.filter((s) => scenarioFamily(str(s['id'])) === f).length;
  const verdicts = VERDICTS.filter((v) => byVerdict(v) > 0)
    .map((v) => `<label><input type="checkbox" id="fv-${token(v)}" checked> <span class="badge ${token(v)}">${esc(v.replace(/_/g, ' '))}</span> ${byVerdict(v)}</label>`)
    .join('');
  const fams = families.map((f) => `<label><input type="checkbox" id="ff-${token(f)}" checked> <code>${esc(f)}</code> ${byFamily(f)}</label>`).join('');
  return `<nav class="filters" aria-label="filters"><fieldset><legend>Verdict</legend>${verdicts}</fieldset><details class="families"><summary>Families (${families.length})</summary><fieldset>${fams}</fieldset></details>
<span class="tools" hidden><span id="shown"></span> <button type="button" id="expand">expand all</button> <button type="button" id="collapse">collapse all</button></span></nav>`;
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}
