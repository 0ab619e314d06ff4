// What a not-passing scenario says about itself, compactly: the CLI summary, CI annotations, the step summary and vitest share it.
import type { ScenarioResult, ScenarioVerdict } from './schema.js';
import { markDifference, worthMarking } from './string-diff.js';
import { journalAnswerLine, rowChangeLines } from './row-changes.js';

/** Verdicts that fail a run or leave it undecided. */
export const NOT_PASSING: ReadonlySet<ScenarioVerdict> = new Set(['failed', 'inconclusive', 'stale_expected_failure']);

/** One failed assertion of one trial. */
export interface FailedAssertion {
  readonly trial: string;
  readonly name: string;
  readonly expected: string;
  readonly actual: string;
  /** When expected and actual are both strings: where they first differ, caret-marked (empty otherwise). */
  readonly difference: string[];
}

/** Every failed assertion of a scenario, values as compact JSON. */
export function failedAssertions(s: ScenarioResult, maxChars = 160): FailedAssertion[] {
  return s.trials.flatMap((t) =>
    t.assertions.filter((a) => !a.passed).map((a) => ({
      trial: t.id,
      name: a.name,
      expected: compactJson(a.expected, maxChars),
      actual: compactJson(a.actual, maxChars),
      difference: typeof a.expected === 'string' && typeof a.actual === 'string' && worthMarking(a.expected, a.actual) ? markDifference(a.expected, a.actual, Math.min(72, maxChars)) : [],
    })),
  );
}

/** For each failed trial of a scenario (up to `trials`), the rows it touched before the kill and after the restart. */
export function failedTrialRows(s: ScenarioResult, trials = 2): string[] {
  return s.trials.filter((t) => t.verdict === 'failed').slice(0, trials).flatMap((t) => {
    const answer = journalAnswerLine(t);
    const lines = [...(answer === null ? [] : [answer]), ...rowChangeLines(t)];
    return lines.length === 0 ? [] : [`trial ${t.id}: ${lines[0]}`, ...lines.slice(1)];
  });
}

/** Why a scenario did not pass, in one line. */
export function whyNotPassing(s: ScenarioResult): string {
  if (s.verdict === 'stale_expected_failure') return 'passes now; remove it from the expect-failures file';
  if (s.reason !== null) return s.reason;
  return s.trials.find((t) => t.inconclusiveReason !== null)?.inconclusiveReason ?? 'see the report';
}

/** JSON of a value on one line, cut to `max` characters with an ellipsis, at a word boundary when one is near. */
export function compactJson(value: unknown, max = 160): string {
  const text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  return cutAtWord(text, max);
}

/** The text cut to at most `max` characters ending in an ellipsis, never inside a word when a boundary is in the last quarter. */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const boundary = Math.max(head.lastIndexOf(' '), head.lastIndexOf(','), head.lastIndexOf(':'), head.lastIndexOf(';'));
  return `${boundary >= Math.floor(max * 0.75) ? head.slice(0, boundary + 1).trimEnd() : head}…`;
}

/** The last lines the implementation wrote to stderr in a scenario's trials. */
export function stderrTail(s: ScenarioResult, lines: number): string[] {
  return s.trials.flatMap((t) => t.stderrTail).slice(-lines);
}
