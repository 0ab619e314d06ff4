// An exploration's counterexample as a person follows it: the broken clause, numbered steps up to the violating one, the replay command.
import { arr, definitionList, esc, num, obj, str, valueHtml, type Loose } from './html-parts.js';

const SHOWN = new Set(['steps', 'replay', 'clause', 'contract', 'what', 'expected', 'observed', 'step', 'omittedSteps']);

/** The counterexample (read defensively: the explore section's shape, or a list of steps), or nothing when there is none. */
export function counterexampleHtml(value: unknown): string {
  if (value === undefined || value === null) return '';
  const c = obj(value);
  const steps = arr(c['steps']);
  const at = num(c['step']);
  const omitted = num(c['omittedSteps']) ?? 0;
  const clause = str(c['clause']);
  const head = clause === '' ? '' : `<p class="violation"><strong>Broken:</strong> <code>${esc(clause)}</code> ${esc(str(c['contract']))}</p>`;
  const what = str(c['what']) === '' ? '' : `<p><strong>${at === null ? 'What' : `At step ${at}`}:</strong> ${esc(str(c['what']))}</p>`;
  const values = 'expected' in c || 'observed' in c ? `<table class="assertions"><thead><tr><th>the model allows</th><th>the journal did</th></tr></thead><tbody><tr class="bad"><td>${valueHtml(c['expected'])}</td><td>${valueHtml(c['observed'])}</td></tr></tbody></table>` : '';
  const list = steps.length === 0 ? '' : `${omitted > 0 ? `<p class="muted">${omitted} earlier step(s) left out.</p>` : ''}<ol class="steps">${steps.map((s, i) => stepItem(s, i, at)).join('')}</ol>`;
  const replay = str(c['replay']) === '' ? '' : `<p><strong>Replay exactly this:</strong> <code>${esc(str(c['replay']))}</code></p>`;
  const rest = Object.fromEntries(Object.entries(c).filter(([k]) => !SHOWN.has(k)));
  return `<div class="counterexample"><h4>Counterexample${steps.length > 0 ? `, ${steps.length} step(s)` : ''}</h4>${head}${what}${values}${list}${replay}${Object.keys(rest).length > 0 ? definitionList(rest) : ''}</div>`;
}

// A numbered step keeps the history's own number (steps without a finding are left out), and the violating one is marked.
function stepItem(value: unknown, index: number, at: number | null): string {
  if (typeof value === 'string') return `<li>${esc(value)}</li>`;
  const s = obj(value);
  const n = num(s['step']);
  const violating = n !== null && n === at;
  return `<li${n === null ? '' : ` value="${n}"`}${violating ? ' class="violating"' : ''}>${stepText(s, index)}${violating ? ' <span class="no">← the clause breaks here</span>' : ''}</li>`;
}

function stepText(step: Loose, index: number): string {
  const text = ['text', 'describe', 'description'].map((k) => step[k]).find((v) => typeof v === 'string');
  const head = ['kind', 'action', 'op', 'type'].map((k) => step[k]).find((v) => typeof v === 'string');
  const code = head === undefined ? '' : `<code>${esc(head as string)}</code> `;
  if (text !== undefined) return `${code}${esc(text as string)}`;
  const rest = Object.fromEntries(Object.entries(step).filter(([k]) => k !== 'step'));
  return `${code}${Object.keys(rest).length === 0 ? `step ${index + 1}` : esc(JSON.stringify(rest).slice(0, 400))}`;
}
