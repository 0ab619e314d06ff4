// One scenario on the report page: in full (its failing trials with everything) when it did not pass, else one line.
import { scenarioFamily } from './family.js';
import { arr, definitionList, esc, obj, str, token, valueHtml, type Loose } from './html-parts.js';
import { trialDetails, trialLine } from './html-trial.js';

const KNOWN = new Set(['id', 'title', 'spec', 'tags', 'verdict', 'reason', 'reproduce', 'trials', 'durationMs']);

/** Verdicts a reader came for: shown in full and open. */
export const NOT_PASSING_VERDICTS: ReadonlySet<string> = new Set(['failed', 'stale_expected_failure', 'inconclusive']);

/** The scenario in full, open when it did not pass; passing trials inside it are one line each. */
export function scenarioHtml(s: Loose, counterexample: unknown): string {
  const id = str(s['id'], '?');
  const verdict = str(s['verdict'], 'unknown');
  const open = NOT_PASSING_VERDICTS.has(verdict) ? ' open' : '';
  const trials = arr(s['trials']).map(obj);
  const full = trials.filter((t) => t['verdict'] !== 'passed' || trials.length === 1);
  const passed = trials.filter((t) => !full.includes(t));
  const extra = Object.fromEntries(Object.entries(s).filter(([k]) => !KNOWN.has(k)));
  // A counterexample belongs to the trial that failed (an exploration's scenario has one); else to the first shown.
  const holder = full.find((t) => t['verdict'] === 'failed') ?? full[0];
  return `<details class="scenario" id="s-${esc(token(id))}" data-verdict="${esc(token(verdict))}" data-family="${esc(token(scenarioFamily(id)))}"${open}>
<summary>${badge(verdict)} <span class="id">${esc(id)}</span> <span>${esc(str(s['title']))}</span></summary>
<div class="body">
${s['reason'] === null || s['reason'] === undefined ? '' : `<p class="why"><strong>Why:</strong> ${esc(str(s['reason']))}</p>`}
<p><strong>Reproduce:</strong> <code>${esc(str(s['reproduce']))}</code></p>
${full.map((t) => trialDetails(t, t === holder && counterexample !== undefined && counterexample !== null ? counterexample : t['counterexample'])).join('\n')}
${trials.length === 0 ? '<p class="muted">No trial ran.</p>' : ''}
${passed.length === 0 ? '' : `<p><strong>${passed.length} other trial(s) passed:</strong></p><ul class="trial-lines">${passed.map(trialLine).join('')}</ul>`}
<p class="muted">Contract: ${esc(str(s['spec'], '(not stated)'))} · tags ${valueHtml(arr(s['tags']))}</p>
${Object.keys(extra).length === 0 ? '' : definitionList(extra)}
</div></details>`;
}

/** A scenario that passed or did not apply, in one line: its trials' details stay in the report's JSON. */
export function scenarioLine(s: Loose): string {
  const id = str(s['id'], '?');
  const verdict = str(s['verdict'], 'unknown');
  const trials = arr(s['trials']).map(obj);
  const kills = trials.reduce((n, t) => n + arr(t['kills']).length, 0);
  const what = verdict === 'not_applicable' ? esc(str(s['reason'], 'not applicable')) : `${trials.length} trial(s) · ${kills} kill(s)`;
  return `<li class="scenario" id="s-${esc(token(id))}" data-verdict="${esc(token(verdict))}" data-family="${esc(token(scenarioFamily(id)))}">${badge(verdict)} <span class="id">${esc(id)}</span> <span class="title">${esc(str(s['title']))}</span> <span class="muted">${what}</span></li>`;
}

function badge(verdict: string): string {
  return `<span class="badge ${esc(token(verdict))}">${esc(verdict.replace(/_/g, ' '))}</span>`;
}
