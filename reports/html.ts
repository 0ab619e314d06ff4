// The self-contained HTML page of a report: verdict, implementation, filters, every scenario's assertions and each trial's timeline.
import { createHash } from 'node:crypto';
import { maskText } from '../shared/secrets/mask.js';
import { scenarioFamily } from './family.js';
import { arr, definitionList, esc, jsonBlock, obj, str, token, valueHtml, type Loose } from './html-parts.js';
import { PAGE_SCRIPT, pageStyle } from './html-style.js';
import { timelineHtml } from './html-timeline.js';
import { trialDetails } from './html-trial.js';
import { claimedScope, exclusionLines, verdictStatement } from './scope.js';
import type { Scope, Verdict } from './schema.js';

/** Options for the page: the verify problems to show in a banner (none when the report verified). */
export interface HtmlOptions {
  readonly problems?: readonly string[];
}

const VERDICTS = ['failed', 'stale_expected_failure', 'inconclusive', 'expected_failure', 'passed', 'not_applicable'];
// Fields the page lays out itself; anything else a report carries is shown as it is, so newer fields are never hidden.
const KNOWN_TOP = new Set(['schema', 'implementation', 'harness', 'seed', 'selection', 'startedAt', 'finishedAt', 'durationMs', 'verdict', 'summary', 'counts', 'scenarios', 'sections', 'reproduce', 'boundary', 'scope', 'outcomeDigest', 'contentHash']);

/**
 * Renders a parsed report (read defensively: fields may be missing or newer than this code) as one
 * HTML page with no external resources; a Content-Security-Policy allows only its own style and script.
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
    countsList(r),
    scopeSection(scopeOf(scenarios)),
    implementationSection(r, impl),
    otherFields(r),
    filters(scenarios, families),
    '<section id="scenarios"><h2>Scenarios</h2>',
    scenarios.map(scenarioHtml).join('\n'),
    '</section>',
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

function header(r: Loose, verdict: string, impl: Loose): string {
  const summary = obj(r['summary']);
  const scope = scopeOf(arr(r['scenarios']).map(obj));
  const stated = verdict === 'conformant' || verdict === 'nonconformant' || verdict === 'inconclusive' ? verdictStatement(verdict as Verdict, scope) : verdict;
  return `<header class="verdict ${token(verdict)}"><h1>${esc(stated)}: ${esc(str(impl['name'], '(unnamed implementation)'))} ${esc(str(impl['version']))}</h1>
<p>seed ${esc(str(r['seed'], '?'))} · ${esc(str(summary['total'], '?'))} scenario(s) · started ${esc(str(r['startedAt'], '?'))} · ${esc(str(r['durationMs'], '?'))} ms · harness ${esc(str(obj(r['harness'])['version'], '?'))}</p></header>`;
}

// Recomputed from the scenarios, so a report written before the scope field existed says what its claims kept out too.
function scopeOf(scenarios: Loose[]): Scope {
  return claimedScope(scenarios.map((s) => ({ id: str(s['id'], '?'), verdict: s['verdict'] === 'not_applicable' ? 'not_applicable' : 'passed', reason: typeof s['reason'] === 'string' ? s['reason'] : null })));
}

function scopeSection(scope: Scope): string {
  if (scope.complete) return '<section id="scope"><h2>Scope</h2><p>Every selected scenario applied: no claim kept any out.</p></section>';
  const items = exclusionLines(scope).map((l) => `<li>${esc(l)}</li>`).join('');
  return `<section id="scope"><h2>Not tested: excluded by the claims</h2><p>The verdict holds only for the claimed scope. These scenarios did not run:</p><ul>${items}</ul></section>`;
}

function problemsBanner(problems: readonly string[]): string {
  if (problems.length === 0) return '';
  const shown = problems.slice(0, 20).map((p) => `<li>${esc(p)}</li>`).join('');
  return `<div class="problems" role="alert"><strong>This report does not verify</strong> (ejc verify found ${problems.length} problem(s)); what it shows cannot be trusted as a witness.<ul>${shown}</ul></div>`;
}

function countsList(r: Loose): string {
  const summary = obj(r['summary']);
  const counts = obj(r['counts']);
  const items = [
    ...Object.entries(summary).filter(([k]) => k !== 'total').map(([k, v]) => `<li>${esc(k)} <b>${esc(str(v))}</b></li>`),
    ...Object.entries(counts).map(([k, v]) => `<li class="muted">${esc(k)} <b>${esc(str(v))}</b></li>`),
  ];
  return `<ul class="counts">${items.join('')}</ul>`;
}

function implementationSection(r: Loose, impl: Loose): string {
  const harness = obj(r['harness']);
  const boundary = obj(r['boundary']);
  return `<section id="implementation"><h2>Implementation</h2>${definitionList(impl)}
<h3>Harness</h3>${definitionList(harness)}
<h3>Selection</h3>${definitionList(obj(r['selection']))}
<h3>What this claim covers</h3><p>${esc(str(boundary['claim']))}</p>${definitionList(Object.fromEntries(Object.entries(boundary).filter(([k]) => k !== 'claim')))}</section>`;
}

function filters(scenarios: Loose[], families: string[]): string {
  const byVerdict = (v: string): number => scenarios.filter((s) => s['verdict'] === v).length;
  const byFamily = (f: string): number => scenarios.filter((s) => scenarioFamily(str(s['id'])) === f).length;
  const verdicts = VERDICTS.filter((v) => byVerdict(v) > 0)
    .map((v) => `<label><input type="checkbox" id="fv-${token(v)}" checked> <span class="badge ${token(v)}">${esc(v.replace(/_/g, ' '))}</span> ${byVerdict(v)}</label>`)
    .join('');
  const fams = families.map((f) => `<label><input type="checkbox" id="ff-${token(f)}" checked> <code>${esc(f)}</code> ${byFamily(f)}</label>`).join('');
  return `<nav class="filters" aria-label="filters"><fieldset><legend>Verdict</legend>${verdicts}</fieldset><fieldset><legend>Family</legend>${fams}</fieldset>
<span class="tools" hidden><span id="shown"></span> <button type="button" id="expand">expand all</button> <button type="button" id="collapse">collapse all</button></span></nav>`;
}

function scenarioHtml(s: Loose): string {
  const id = str(s['id'], '?');
  const verdict = str(s['verdict'], 'unknown');
  const open = ['failed', 'inconclusive', 'stale_expected_failure'].includes(verdict) ? ' open' : '';
  const trials = arr(s['trials']).map(obj);
  const extra = Object.fromEntries(Object.entries(s).filter(([k]) => !['id', 'title', 'spec', 'tags', 'verdict', 'reason', 'reproduce', 'trials', 'durationMs'].includes(k)));
  return `<details class="scenario" id="s-${esc(token(id))}" data-verdict="${esc(token(verdict))}" data-family="${esc(token(scenarioFamily(id)))}"${open}>
<summary><span class="badge ${esc(token(verdict))}">${esc(verdict.replace(/_/g, ' '))}</span> <span class="id">${esc(id)}</span> <span>${esc(str(s['title']))}</span> <span class="muted">${esc(str(s['spec']))}</span></summary>
<div class="body">
${s['reason'] === null || s['reason'] === undefined ? '' : `<p><strong>Why:</strong> ${esc(str(s['reason']))}</p>`}
<p><strong>Contract:</strong> ${esc(str(s['spec'], '(not stated)'))} · tags ${valueHtml(arr(s['tags']))}</p>
<p><strong>Reproduce:</strong> <code>${esc(str(s['reproduce']))}</code></p>
${Object.keys(extra).length === 0 ? '' : definitionList(extra)}
${trials.length === 0 ? '<p class="muted">No trial ran.</p>' : trials.map((t) => trialDetails(t, timelineHtml(t['events'], str(t['id'])))).join('\n')}
</div></details>`;
}

function sectionsHtml(r: Loose): string {
  const sections = obj(r['sections']);
  const names = Object.keys(sections);
  if (names.length === 0) return '';
  return `<section id="sections"><h2>Report sections</h2>${names.map((n) => `<h3>${esc(n)}</h3>${jsonBlock(sections[n], 2000)}`).join('')}</section>`;
}

function otherFields(r: Loose): string {
  const rest = Object.fromEntries(Object.entries(r).filter(([k]) => !KNOWN_TOP.has(k)));
  return Object.keys(rest).length === 0 ? '' : `<section id="more"><h2>Also in this report</h2>${definitionList(rest)}</section>`;
}

function footer(r: Loose): string {
  const reproduce = obj(r['reproduce']);
  return `<footer><dl><dt>reproduce</dt><dd><code>${esc(str(reproduce['run']))}</code></dd><dt>verify</dt><dd><code>${esc(str(reproduce['verify']))}</code></dd>
<dt>outcomeDigest</dt><dd><code>${esc(str(r['outcomeDigest']))}</code></dd><dt>contentHash</dt><dd><code>${esc(str(r['contentHash']))}</code></dd>
<dt>schema</dt><dd>${valueHtml(r['schema'])}</dd></dl></footer>`;
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}
