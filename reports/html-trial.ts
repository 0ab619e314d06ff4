// One trial on the report page: its verdict, kills, assertions (expected vs actual), a counterexample if any, and its timeline.
import { arr, definitionList, esc, jsonBlock, obj, str, token, valueHtml, type Loose } from './html-parts.js';

const KNOWN = new Set(['id', 'seed', 'plannedKills', 'kills', 'effectsBefore', 'effectsAfter', 'assertions', 'counts', 'verdict', 'inconclusiveReason', 'violations', 'stderrTail', 'events', 'durationMs', 'counterexample']);

/** The trial's section; `timeline` is its already rendered timeline. */
export function trialDetails(t: Loose, timeline: string): string {
  const verdict = str(t['verdict'], 'unknown');
  const kills = arr(t['kills']).map(obj);
  const extra = Object.fromEntries(Object.entries(t).filter(([k]) => !KNOWN.has(k)));
  return `<div class="trial" data-verdict="${esc(token(verdict))}">
<h3><span class="badge ${esc(token(verdict))}">${esc(verdict)}</span> trial <code>${esc(str(t['id'], '?'))}</code> <span class="muted">seed ${esc(str(t['seed'], '?'))} · ${esc(str(t['durationMs'], '?'))} ms · planned kills ${esc(str(t['plannedKills'], '?'))}, observed ${kills.length}</span></h3>
${t['inconclusiveReason'] === null || t['inconclusiveReason'] === undefined ? '' : `<p><strong>Inconclusive:</strong> ${esc(str(t['inconclusiveReason']))}</p>`}
${assertionsTable(arr(t['assertions']).map(obj))}
${killsTable(kills)}
${violations(arr(t['violations']).map(obj))}
${counterexample(t['counterexample'])}
<h4>Timeline</h4>
${timeline}
${stderr(arr(t['stderrTail']))}
${rows('journal rows before the crash', t['effectsBefore'])}${rows('journal rows after the restart', t['effectsAfter'])}
${Object.keys(extra).length === 0 ? '' : definitionList(extra)}
</div>`;
}

function assertionsTable(assertions: Loose[]): string {
  if (assertions.length === 0) return '<p class="muted">No assertion was checked.</p>';
  // Failed assertions first: they are what a reader came for.
  const ordered = [...assertions.filter((a) => a['passed'] !== true), ...assertions.filter((a) => a['passed'] === true)];
  const body = ordered.map((a) => {
    const ok = a['passed'] === true;
    return `<tr class="${ok ? 'good' : 'bad'}"><td>${ok ? '<span class="ok">✓ held</span>' : '<span class="no">✗ failed</span>'}</td><td>${esc(str(a['name']))}</td><td>${valueHtml(a['expected'])}</td><td>${valueHtml(a['actual'])}</td></tr>`;
  });
  return `<table class="assertions"><thead><tr><th></th><th>assertion</th><th>expected</th><th>actual</th></tr></thead><tbody>${body.join('')}</tbody></table>`;
}

function killsTable(kills: Loose[]): string {
  if (kills.length === 0) return '';
  const body = kills.map((k) => `<tr><td><code>${esc(str(k['driver']))}</code></td><td><code>${esc(str(k['planned']))}</code></td><td><code>${esc(str(k['point']))}</code></td><td class="num">${esc(str(k['seq']))}</td><td>${k['signal'] === 'SIGKILL' ? '<span class="ok">SIGKILL</span>' : `<span class="no">${esc(str(k['signal'], 'no signal'))}</span>`}</td></tr>`);
  return `<table class="kills"><thead><tr><th>killed driver</th><th>planned at</th><th>landed at</th><th>seq</th><th>signal observed</th></tr></thead><tbody>${body.join('')}</tbody></table>`;
}

function violations(list: Loose[]): string {
  if (list.length === 0) return '';
  return `<p><strong>Protocol violations:</strong></p><ul>${list.map((v) => `<li><code>${esc(str(v['op'], '(no op)'))}</code> ${esc(str(v['field']))}: ${esc(str(v['message']))}</li>`).join('')}</ul>`;
}

// An exploration's shrunk counterexample: read defensively, steps in order when it lists them.
function counterexample(value: unknown): string {
  if (value === undefined || value === null) return '';
  const c = obj(value);
  const steps = arr(c['steps']);
  const rest = Object.fromEntries(Object.entries(c).filter(([k]) => k !== 'steps'));
  const list = steps.length === 0 ? '' : `<ol class="steps">${steps.map((s) => `<li>${typeof s === 'string' ? esc(s) : stepText(obj(s))}</li>`).join('')}</ol>`;
  return `<h4>Shrunk counterexample${steps.length > 0 ? `, ${steps.length} step(s)` : ''}</h4>${list}${Object.keys(rest).length > 0 ? definitionList(rest) : steps.length === 0 ? jsonBlock(value) : ''}`;
}

function stepText(step: Loose): string {
  const head = ['kind', 'action', 'op', 'type'].map((k) => step[k]).find((v) => typeof v === 'string');
  const describe = ['describe', 'description', 'text'].map((k) => step[k]).find((v) => typeof v === 'string');
  if (describe !== undefined) return `${head === undefined ? '' : `<code>${esc(head as string)}</code> `}${esc(describe as string)}`;
  return `${head === undefined ? '' : `<code>${esc(head as string)}</code> `}${jsonBlock(step, 300)}`;
}

function stderr(lines: unknown[]): string {
  if (lines.length === 0) return '';
  return `<h4>Implementation stderr (tail)</h4><pre>${esc(lines.map((l) => str(l)).join('\n'))}</pre>`;
}

function rows(label: string, value: unknown): string {
  if (!Array.isArray(value)) return '';
  return `<details class="fold"><summary>${esc(label)}: ${value.length} row(s)</summary>${jsonBlock(value, Infinity)}</details>`;
}
