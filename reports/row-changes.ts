// The journal rows a failed trial touched, before the kill and after the restart, side by side: state, digest, key, result.
import type { Trial, TrialEvent } from './schema.js';

type Row = NonNullable<Trial['effectsAfter']>[number];

/** One row across the kill: where it lives and its summary before and after (null: no such row then). */
export interface RowChange {
  readonly effectId: string;
  /** `run R/N slot 0 tool.x` or `session S turn 1 slot 0 tool.x`. */
  readonly address: string;
  readonly before: RowSummary | null;
  readonly after: RowSummary | null;
  readonly changed: boolean;
}

/** The fields of a row a reader compares across the kill. */
export interface RowSummary {
  readonly state: string;
  readonly argsDigest: string;
  readonly idempotencyKey: string | null;
  readonly resultRetained: boolean;
}

/**
 * The rows that changed, appeared or vanished across the kill (all rows when there are few), with how many there were;
 * null without both snapshots. The terminal, JUnit, vitest and the HTML page all read it.
 */
export function rowChanges(t: Pick<Trial, 'effectsBefore' | 'effectsAfter'>): { total: number; shown: RowChange[] } | null {
  if (t.effectsBefore === null || t.effectsAfter === null) return null;
  const before = new Map(t.effectsBefore.map((r) => [r.effectId, r]));
  const after = new Map(t.effectsAfter.map((r) => [r.effectId, r]));
  const ids = [...new Set([...before.keys(), ...after.keys()])];
  const all = ids.map((id): RowChange => {
    const b = before.get(id);
    const a = after.get(id);
    const what = (a ?? b)!;
    const scope = what.scope.kind === 'run' ? `run ${what.scope.runId}/${what.scope.nodeId}` : `session ${what.scope.sessionId} turn ${what.scope.turn}`;
    return { effectId: id, address: `${scope} slot ${what.slot} ${what.toolId}`, before: rowSummary(b), after: rowSummary(a), changed: line(b) !== line(a) };
  });
  return { total: ids.length, shown: ids.length <= 3 ? all : all.filter((c) => c.changed) };
}

/** One line per row that changed, appeared or vanished across the kill (all rows when there are few), or none without both snapshots. */
export function rowChangeLines(t: Pick<Trial, 'effectsBefore' | 'effectsAfter'>, max = 8): string[] {
  const changes = rowChanges(t);
  if (changes === null) return [];
  const { total, shown } = changes;
  if (shown.length === 0) return [`rows before the kill and after the restart: ${total} row(s), none changed`];
  const lines = ['rows before the kill → after the restart (state, args digest, idempotency key, result retained):'];
  for (const c of shown.slice(0, max)) {
    lines.push(`  ${c.effectId} (${c.address}): ${summaryText(c.before)} → ${c.changed ? summaryText(c.after) : 'unchanged'}`);
  }
  if (shown.length > max) lines.push(`  … and ${shown.length - max} more row(s) in the report`);
  return lines;
}

/** A row's summary as the terminal prints it: `committed, v5:abc…, key k, result retained`. */
export function summaryText(r: RowSummary | null): string {
  if (r === null) return '(no row)';
  return `${r.state}, ${shortDigest(r.argsDigest)}, key ${r.idempotencyKey ?? 'none'}, result ${r.resultRetained ? 'retained' : 'not retained'}`;
}

/** An args digest cut to its form and first hex digits. */
export function shortDigest(digest: string): string {
  return `${digest.slice(0, 15)}${digest.length > 15 ? '…' : ''}`;
}

function rowSummary(r: Row | undefined): RowSummary | null {
  return r === undefined ? null : { state: r.state, argsDigest: r.argsDigest, idempotencyKey: r.idempotencyKey, resultRetained: r.resultRetained };
}

function line(r: Row | undefined): string {
  return summaryText(rowSummary(r));
}

// Bookkeeping operations say nothing about the clause a trial checks.
const QUIET = new Set(['hello', 'open', 'close', 'listEffects', 'files', 'checkpoint', 'fault', 'seed', 'argsProjection']);

/** One answer of the journal: the operation and its verdict, decision or error code, as the timeline holds it. */
export interface JournalAnswer {
  readonly op: string;
  readonly error: boolean;
  /** The verdict or decision of a result, the code of an error (null: the timeline holds none). */
  readonly detail: string | null;
}

/** The journal's own answers after the last restart (all of them when nothing restarted), from the trial's timeline. */
export function journalAnswers(t: Pick<Trial, 'events'>): { afterRestart: boolean; answers: JournalAnswer[] } {
  const events: readonly TrialEvent[] = t.events ?? [];
  const restart = events.map((e) => e.kind).lastIndexOf('restart');
  const answers = events
    .slice(restart + 1)
    .filter((e) => (e.kind === 'result' || e.kind === 'error') && e.name !== null && !QUIET.has(e.name))
    .map((e) => ({ op: e.name!, error: e.kind === 'error', detail: e.detail }));
  return { afterRestart: restart >= 0, answers };
}

/** One answer as text: `gate → refuse`, `prepare → error unresolved_prior_effect`. */
export function answerText(a: JournalAnswer): string {
  return `${a.op} → ${a.error ? `error ${a.detail ?? '(no code)'}` : (a.detail ?? 'a result')}`;
}

/** The journal's own answers after the last restart (its verdicts, decisions and error codes, from the timeline), up to `max`. */
export function journalAnswerLine(t: Pick<Trial, 'events'>, max = 6): string | null {
  const { afterRestart, answers } = journalAnswers(t);
  if (answers.length === 0) return null;
  const shown = answers.slice(-max).map(answerText);
  return `the journal's answers${afterRestart ? ' after the restart' : ''}: ${answers.length > max ? '…; ' : ''}${shown.join('; ')}`;
}
