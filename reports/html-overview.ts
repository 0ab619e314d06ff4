// The report page's parts around the scenarios: verdict, root causes, counts in words, what was not tested, and below them the run's details.
import { arr, definitionList, esc, humanLabel, jsonBlock, obj, str, token, valueHtml, type Loose } from './html-parts.js';
import { describeCause, rootCauses } from './root-causes.js';
import { claimedScope, exclusionLines, verdictStatement } from './scope.js';
import { ScenarioResult, type Scope, type Verdict } from './schema.js';

/** The coloured verdict bar with the one line that places the run. */
export function header(r: Loose, verdict: string, impl: Loose): string {
  const summary = obj(r['summary']);
  const scope = scopeOf(arr(r['scenarios']).map(obj));
  const stated = verdict === 'conformant' || verdict === 'nonconformant' || verdict === 'inconclusive' ? verdictStatement(verdict as Verdict, scope) : verdict;
  return `<header class="verdict ${token(verdict)}"><h1>${esc(stated)}: ${esc(str(impl['name'], '(unnamed implementation)'))} ${esc(str(impl['version']))}</h1>
<p>seed ${esc(str(r['seed'], '?'))} · ${esc(str(summary['total'], '?'))} scenario(s) · started ${esc(str(r['startedAt'], '?'))} · ${esc(str(r['durationMs'], '?'))} ms · harness ${esc(str(obj(r['harness'])['version'], '?'))}</p></header>`;
}

/** Recomputed from the scenarios, so a report written before the scope field existed says what its claims kept out too. */
export function scopeOf(scenarios: Loose[]): Scope {
  return claimedScope(scenarios.map((s) => ({ id: str(s['id'], '?'), verdict: s['verdict'] === 'not_applicable' ? 'not_applicable' : 'passed', reason: typeof s['reason'] === 'string' ? s['reason'] : null })));
}

/** The root causes lead the page: failed scenarios grouped by their first failing check (reports/root-causes.ts). */
export function rootCauseSection(scenarios: Loose[]): string {
  const parsed = scenarios.flatMap((s) => {
    const one = ScenarioResult.safeParse(s);
    return one.success ? [one.data] : [];
  });
  const causes = rootCauses(parsed);
  if (causes.length === 0) return '';
  const items = causes
    .map((c) => `<li><p>${esc(describeCause(c))}</p><p class="scenarios">${c.scenarios.map((id) => `<code>${esc(id)}</code>`).join(', ')}</p></li>`)
    .join('');
  const failed = causes.reduce((n, c) => n + c.scenarios.length, 0);
  const headline = `${causes.length} root cause${causes.length === 1 ? '' : 's'} for ${failed} failed scenario${failed === 1 ? '' : 's'}`;
  return `<section id="root-causes"><h2>${esc(headline)}</h2><p class="muted">Failed scenarios grouped by their first failing check, largest group first; each is shown in full below.</p><ol>${items}</ol></section>`;
}

/** Scenario verdicts and the run's counts, labelled in words. */
export function countsList(r: Loose): string {
  const summary = obj(r['summary']);
  const counts = obj(r['counts']);
  const items = [
    ...Object.entries(summary).filter(([k]) => k !== 'total').map(([k, v]) => `<li>${esc(humanLabel(k))} <b>${esc(str(v))}</b></li>`),
    ...Object.entries(counts).map(([k, v]) => `<li class="muted">${esc(humanLabel(k))} <b>${esc(k === 'bytesScanned' && typeof v === 'number' ? bytes(v) : str(v))}</b></li>`),
  ];
  return `<ul class="counts" aria-label="counts">${items.join('')}</ul>`;
}

function bytes(n: number): string {
  return n < 10_000 ? String(n) : n < 10_000_000 ? `${Math.round(n / 1000)} kB` : `${(n / 1_000_000).toFixed(1)} MB`;
}

/** The machine's missing dimensions: what the verdict cannot speak for. */
export function notTestedSection(value: unknown): string {
  const entries = arr(value).map(obj);
  if (entries.length === 0) return '';
  const items = entries.map((e) => `<li><b>${esc(str(e['dimension'], '?'))}</b>: no ${esc(str(e['tool'], '?'))}: ${esc(str(e['untested']))}. Install: <code>${esc(str(e['install']))}</code>${arr(e['scenarios']).length > 0 ? ` (${arr(e['scenarios']).length} scenario(s) not applicable)` : ''}</li>`).join('');
  return `<section id="not-tested" class="problems"><h2>Not tested on this machine</h2><p>The machine that ran this lacked these tools; the verdict says nothing about what only they could show.</p><ul>${items}</ul></section>`;
}

/** What the claims kept out of the run. */
export function scopeSection(scope: Scope): string {
  if (scope.complete) return '<section id="scope"><h2>Scope</h2><p>Every selected scenario applied: no claim kept any out.</p></section>';
  const items = exclusionLines(scope).map((l) => `<li>${esc(l)}</li>`).join('');
  return `<section id="scope"><h2>Not tested: excluded by the claims</h2><p>The verdict holds only for the claimed scope. These scenarios did not run:</p><ul>${items}</ul></section>`;
}

/** The banner of a report that does not verify. */
export function problemsBanner(problems: readonly string[]): string {
  if (problems.length === 0) return '';
  const shown = problems.slice(0, 20).map((p) => `<li>${esc(p)}</li>`).join('');
  return `<div class="problems" role="alert"><strong>This report does not verify</strong> (ejc verify found ${problems.length} problem(s)); what it shows cannot be trusted as a witness.<ul>${shown}</ul></div>`;
}

/** The implementation, harness, selection and claim boundary: below the findings. */
export function implementationSection(r: Loose, impl: Loose): string {
  const boundary = obj(r['boundary']);
  return `<section id="implementation"><h2>Implementation</h2>${definitionList(impl)}
<h3>Harness</h3>${definitionList(obj(r['harness']))}
<h3>Selection</h3>${definitionList(obj(r['selection']))}
<h3>What this claim covers</h3><p>${esc(str(boundary['claim']))}</p>${definitionList(Object.fromEntries(Object.entries(boundary).filter(([k]) => k !== 'claim')))}</section>`;
}

/** Every field the page does not lay out itself, as it is, so newer fields are never hidden. */
export function otherFields(r: Loose, known: ReadonlySet<string>): string {
  const rest = Object.fromEntries(Object.entries(r).filter(([k]) => !known.has(k)));
  return Object.keys(rest).length === 0 ? '' : `<section id="more"><h2>Also in this report</h2>${definitionList(rest)}</section>`;
}

/** The report's sections as JSON, each folded. */
export function sectionsHtml(r: Loose): string {
  const sections = obj(r['sections']);
  const names = Object.keys(sections);
  if (names.length === 0) return '';
  return `<section id="sections"><h2>Report sections</h2>${names.map((n) => `<h3>${esc(humanLabel(n))}</h3>${jsonBlock(sections[n], 2000)}`).join('')}</section>`;
}

/** Reproduce and verify commands and the seal. */
export function footer(r: Loose): string {
  const reproduce = obj(r['reproduce']);
  return `<footer><dl><dt>reproduce</dt><dd><code>${esc(str(reproduce['run']))}</code></dd><dt>verify</dt><dd><code>${esc(str(reproduce['verify']))}</code></dd>
<dt>outcome digest</dt><dd><code>${esc(str(r['outcomeDigest']))}</code></dd><dt>content hash</dt><dd><code>${esc(str(r['contentHash']))}</code></dd>
<dt>schema</dt><dd>${valueHtml(r['schema'])}</dd></dl></footer>`;
}
