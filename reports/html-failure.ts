// What a failed trial shows first on the page: each failed check, the journal's own answers after the restart, and the rows before and after the kill.
import { arr, esc, obj, str, valueHtml, type Loose } from './html-parts.js';
import { answerText, journalAnswers, rowChanges, shortDigest, type RowChange, type RowSummary } from './row-changes.js';
import { Trial } from './schema.js';
import { markDifference, worthMarking } from './string-diff.js';

/**
 * The failed assertions of a trial with the journal's answers and the row table; held ones folded below. With a
 * counterexample the answers are left to it: it names the journal's answer at the very step that broke the clause.
 */
export function failureHtml(t: Loose, withCounterexample = false): string {
  const assertions = arr(t['assertions']).map(obj);
  const failed = assertions.filter((a) => a['passed'] !== true);
  const held = assertions.filter((a) => a['passed'] === true);
  // The helpers the terminal and JUnit use read typed trials; a report this code cannot read still shows its assertions.
  const typed = Trial.safeParse(t);
  const answers = typed.success && !withCounterexample ? journalAnswers(typed.data) : null;
  const rows = typed.success ? rowChanges(typed.data) : null;
  const parts: string[] = [];
  if (failed.length > 0) parts.push(assertionTable(failed, answers));
  else if (assertions.length === 0) parts.push('<p class="muted">No assertion was checked.</p>');
  if (rows !== null) parts.push(rowTable(rows));
  if (held.length > 0) parts.push(`<details class="fold"><summary>${held.length} assertion(s) held</summary>${assertionTable(held, null)}</details>`);
  return parts.join('\n');
}

function assertionTable(list: Loose[], answers: ReturnType<typeof journalAnswers> | null): string {
  const body = list.map((a) => {
    const ok = a['passed'] === true;
    const diff = difference(a['expected'], a['actual']);
    return `<tr class="${ok ? 'good' : 'bad'}"><td>${ok ? '<span class="ok">✓ held</span>' : '<span class="no">✗ failed</span>'}</td><td>${esc(str(a['name']))}</td><td>${valueHtml(a['expected'])}</td><td>${valueHtml(a['actual'])}</td></tr>${diff}`;
  });
  const answerRow = answers === null || answers.answers.length === 0 ? '' : `<tr class="answer"><td>journal</td><td colspan="3"><strong>The journal answered${answers.afterRestart ? ' after the restart' : ''}:</strong> ${answers.answers.slice(-8).map((x) => `<code class="${x.error ? 'no' : ''}">${esc(answerText(x))}</code>`).join(' ')}${answers.answers.length > 8 ? ` <span class="muted">(last 8 of ${answers.answers.length})</span>` : ''}</td></tr>`;
  return `<table class="assertions"><thead><tr><th></th><th>assertion</th><th>expected</th><th>actual</th></tr></thead><tbody>${body.join('')}${answerRow}</tbody></table>`;
}

// Two long strings (canonical JSON, projections) with the first differing character under a caret, as the terminal shows it.
function difference(expected: unknown, actual: unknown): string {
  if (typeof expected !== 'string' || typeof actual !== 'string' || !worthMarking(expected, actual)) return '';
  return `<tr class="diff"><td></td><td>first difference</td><td colspan="2"><pre>${esc(markDifference(expected, actual, 96).join('\n'))}</pre></td></tr>`;
}

function rowTable(rows: NonNullable<ReturnType<typeof rowChanges>>): string {
  if (rows.shown.length === 0) return `<p class="muted">Rows before the kill and after the restart: ${rows.total} row(s), none changed.</p>`;
  const cell = (c: RowChange, read: (r: RowSummary) => string): string => {
    const before = c.before === null ? '(no row)' : read(c.before);
    const after = c.after === null ? '(no row)' : read(c.after);
    return before === after ? `<td>${esc(before)}</td>` : `<td class="changed">${esc(before)} → <b>${esc(after)}</b></td>`;
  };
  const body = rows.shown.slice(0, 20).map((c) =>
    `<tr><td><code>${esc(c.effectId)}</code><br><span class="muted">${esc(c.address)}</span></td>${cell(c, (r) => r.state)}${cell(c, (r) => shortDigest(r.argsDigest))}${cell(c, (r) => r.idempotencyKey ?? 'none')}${cell(c, (r) => (r.resultRetained ? 'retained' : 'not retained'))}</tr>`,
  );
  const more = rows.shown.length > 20 ? `<p class="muted">… and ${rows.shown.length - 20} more changed row(s) in the report.</p>` : '';
  return `<table class="rows"><caption>Journal rows before the kill → after the restart${rows.shown.length < rows.total ? ` (the ${rows.shown.length} of ${rows.total} that changed)` : ''}</caption><thead><tr><th>effect</th><th>state</th><th>args digest</th><th>idempotency key</th><th>result</th></tr></thead><tbody>${body.join('')}</tbody></table>${more}`;
}
