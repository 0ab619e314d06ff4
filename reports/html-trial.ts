// One trial on the report page: in full when it did not pass (what failed, the rows, kills, counterexample, timeline), else one line.
import { counterexampleHtml } from './html-counterexample.js';
import { failureHtml } from './html-failure.js';
import { arr, definitionList, esc, jsonBlock, obj, str, token, type Loose } from './html-parts.js';
import { timelineHtml } from './html-timeline.js';

const KNOWN = new Set(['id', 'seed', 'plannedKills', 'kills', 'effectsBefore', 'effectsAfter', 'assertions', 'counts', 'verdict', 'inconclusiveReason', 'violations', 'stderrTail', 'events', 'durationMs', 'counterexample', 'variableCounts']);

/** The trial's section in full; `counterexample` is the exploration's one for it (the report's section, or the trial's own field). */
export function trialDetails(t: Loose, counterexample: unknown = t['counterexample']): string {
  const verdict = str(t['verdict'], 'unknown');
  const kills = arr(t['kills']).map(obj);
  const extra = Object.fromEntries(Object.entries(t).filter(([k]) => !KNOWN.has(k)));
  return `<div class="trial" data-verdict="${esc(token(verdict))}">
<h3><span class="badge ${esc(token(verdict))}">${esc(verdict.replace(/_/g, ' '))}</span> trial <code>${esc(str(t['id'], '?'))}</code> <span class="muted">seed ${esc(str(t['seed'], '?'))} · ${esc(str(t['durationMs'], '?'))} ms · planned kills ${esc(str(t['plannedKills'], '?'))}, observed ${kills.length}</span></h3>
${t['inconclusiveReason'] === null || t['inconclusiveReason'] === undefined ? '' : `<p><strong>Inconclusive:</strong> ${esc(str(t['inconclusiveReason']))}</p>`}
${violations(arr(t['violations']).map(obj))}
${failureHtml(t, counterexample !== undefined && counterexample !== null)}
${counterexampleHtml(counterexample)}
<h4>Timeline</h4>
${timelineHtml(t['events'], str(t['id']))}
${killsTable(kills)}
${stderr(arr(t['stderrTail']))}
${rows('journal rows before the crash', t['effectsBefore'])}${rows('journal rows after the restart', t['effectsAfter'])}
${Object.keys(extra).length === 0 ? '' : definitionList(extra)}
</div>`;
}

/** A trial that passed, in one line: what it did and what held (its timeline and rows stay in the report's JSON). */
export function trialLine(t: Loose): string {
  const verdict = str(t['verdict'], 'unknown');
  const assertions = arr(t['assertions']).map(obj);
  const held = assertions.filter((a) => a['passed'] === true).length;
  return `<li class="trial-line"><span class="badge ${esc(token(verdict))}">${esc(verdict.replace(/_/g, ' '))}</span> <code>${esc(str(t['id'], '?'))}</code> <span class="muted">${arr(t['kills']).length} kill(s) · ${held} of ${assertions.length} assertion(s) held · ${arr(t['events']).length} event(s) · ${esc(str(t['durationMs'], '?'))} ms</span></li>`;
}

function killsTable(kills: Loose[]): string {
  if (kills.length === 0) return '';
  const body = kills.map((k) => `<tr><td><code>${esc(str(k['driver']))}</code></td><td><code>${esc(str(k['planned']))}</code></td><td><code>${esc(str(k['point']))}</code></td><td class="num">${esc(str(k['seq']))}</td><td>${k['signal'] === 'SIGKILL' ? '<span class="ok">SIGKILL</span>' : `<span class="no">${esc(str(k['signal'], 'no signal'))}</span>`}</td></tr>`);
  return `<details class="fold"><summary>${kills.length} kill(s)</summary><table class="kills"><thead><tr><th>killed driver</th><th>planned at</th><th>landed at</th><th>seq</th><th>signal observed</th></tr></thead><tbody>${body.join('')}</tbody></table></details>`;
}

function violations(list: Loose[]): string {
  if (list.length === 0) return '';
  return `<p><strong>Protocol violations:</strong></p><ul>${list.map((v) => `<li><code>${esc(str(v['op'], '(no op)'))}</code> ${esc(str(v['field']))}: ${esc(str(v['message']))}</li>`).join('')}</ul>`;
}

function stderr(lines: unknown[]): string {
  if (lines.length === 0) return '';
  return `<h4>Implementation stderr (tail)</h4><pre>${esc(lines.map((l) => str(l)).join('\n'))}</pre>`;
}

function rows(label: string, value: unknown): string {
  if (!Array.isArray(value)) return '';
  return `<details class="fold"><summary>${esc(label)}: ${value.length} row(s), as recorded</summary>${jsonBlock(value, Infinity)}</details>`;
}
