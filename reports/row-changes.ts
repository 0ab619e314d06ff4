// The journal rows a failed trial touched, before the kill and after the restart, side by side: state, digest, key, result.
import type { Trial } from './schema.js';

type Row = NonNullable<Trial['effectsAfter']>[number];

/** One line per row that changed, appeared or vanished across the kill (all rows when there are few), or none without both snapshots. */
export function rowChangeLines(t: Pick<Trial, 'effectsBefore' | 'effectsAfter'>, max = 8): string[] {
  if (t.effectsBefore === null || t.effectsAfter === null) return [];
  const before = new Map(t.effectsBefore.map((r) => [r.effectId, r]));
  const after = new Map(t.effectsAfter.map((r) => [r.effectId, r]));
  const ids = [...new Set([...before.keys(), ...after.keys()])];
  const changed = ids.filter((id) => summary(before.get(id)) !== summary(after.get(id)));
  const shown = ids.length <= 3 ? ids : changed;
  if (shown.length === 0) return [`rows before the kill and after the restart: ${ids.length} row(s), none changed`];
  const lines = ['rows before the kill → after the restart (state, args digest, idempotency key, result retained):'];
  for (const id of shown.slice(0, max)) {
    const b = before.get(id);
    const a = after.get(id);
    const what = (a ?? b)!;
    const scope = what.scope.kind === 'run' ? `run ${what.scope.runId}/${what.scope.nodeId}` : `session ${what.scope.sessionId} turn ${what.scope.turn}`;
    lines.push(`  ${id} (${scope} slot ${what.slot} ${what.toolId}): ${summary(b)} → ${summary(a) === summary(b) ? 'unchanged' : summary(a)}`);
  }
  if (shown.length > max) lines.push(`  … and ${shown.length - max} more row(s) in the report`);
  return lines;
}

function summary(r: Row | undefined): string {
  if (r === undefined) return '(no row)';
  return `${r.state}, ${r.argsDigest.slice(0, 15)}${r.argsDigest.length > 15 ? '…' : ''}, key ${r.idempotencyKey ?? 'none'}, result ${r.resultRetained ? 'retained' : 'not retained'}`;
}

// Bookkeeping operations say nothing about the clause a trial checks.
const QUIET = new Set(['hello', 'open', 'close', 'listEffects', 'files', 'checkpoint', 'fault', 'seed', 'argsProjection']);

/** The journal's own answers after the last restart (its verdicts, decisions and error codes, from the timeline), up to `max`. */
export function journalAnswerLine(t: Pick<Trial, 'events'>, max = 6): string | null {
  const events = t.events ?? [];
  const restart = events.map((e) => e.kind).lastIndexOf('restart');
  const answers = events.slice(restart + 1).filter((e) => (e.kind === 'result' || e.kind === 'error') && e.name !== null && !QUIET.has(e.name));
  if (answers.length === 0) return null;
  const shown = answers.slice(-max).map((e) => `${e.name} → ${e.kind === 'error' ? `error ${e.detail ?? '(no code)'}` : (e.detail ?? 'a result')}`);
  return `the journal's answers${restart >= 0 ? ' after the restart' : ''}: ${answers.length > max ? '…; ' : ''}${shown.join('; ')}`;
}
