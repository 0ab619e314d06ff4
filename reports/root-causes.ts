// Root causes: failed scenarios grouped by their first failing check, so one deviation reads as one finding, not fifty.
import { conclusiveFailure } from './derive.js';
import { compactJson } from './failure-text.js';
import type { Assertion, ScenarioResult } from './schema.js';

/** One deviation and the failed scenarios it explains. */
export interface RootCause {
  /** The check, normalised (ids, counts and digests replaced) so the same deviation groups across scenarios. */
  readonly check: string;
  /** The spec clause the first of its scenarios cites. */
  readonly clause: string;
  /** One instance as recorded: the first scenario's failing assertion. */
  readonly example: { readonly scenario: string; readonly assertion: string; readonly expected: string; readonly actual: string };
  /** Failed scenarios whose first failing check this is. */
  readonly scenarios: readonly string[];
  /** Of those, the ones that fail on nothing else. */
  readonly only: readonly string[];
}

/** The failed scenarios grouped by first failing check, largest group first (ties by check text). */
export function rootCauses(scenarios: readonly ScenarioResult[]): RootCause[] {
  const groups = new Map<string, { clause: string; example: RootCause['example']; scenarios: string[]; only: string[] }>();
  for (const s of scenarios) {
    if (s.verdict !== 'failed') continue;
    const failing = failingChecks(s);
    const first = failing[0];
    if (first === undefined) continue;
    const check = normalisedCheck(first);
    const group = groups.get(check) ?? { clause: clauseOf(first.name) ?? s.spec, example: { scenario: s.id, assertion: first.name, expected: compactJson(first.expected), actual: compactJson(first.actual) }, scenarios: [], only: [] };
    group.scenarios.push(s.id);
    if (failing.every((a) => normalisedCheck(a) === check)) group.only.push(s.id);
    groups.set(check, group);
  }
  return [...groups]
    .map(([check, g]) => ({ check, ...g }))
    .sort((a, b) => b.scenarios.length - a.scenarios.length || (a.check < b.check ? -1 : a.check > b.check ? 1 : 0));
}

/** "1 root cause: <check> (§…) — 58 scenarios fail only on it": the line every output leads with. */
export function rootCauseHeadline(causes: readonly RootCause[]): string | null {
  if (causes.length === 0) return null;
  const [top] = causes;
  const failed = causes.reduce((n, c) => n + c.scenarios.length, 0);
  return `${causes.length} root cause${causes.length === 1 ? '' : 's'} for ${failed} failed scenario${failed === 1 ? '' : 's'}; first: ${describeCause(top!)}`;
}

/** One root cause in a line: its check, clause, and how many scenarios it explains. */
export function describeCause(c: RootCause): string {
  const only = c.only.length === c.scenarios.length ? `${c.scenarios.length} scenario${c.scenarios.length === 1 ? '' : 's'} fail only on it` : `${c.scenarios.length} scenario${c.scenarios.length === 1 ? '' : 's'} fail first on it (${c.only.length} only on it)`;
  const clause = clauseOf(c.example.assertion) === null ? ` (${c.clause})` : '';
  return `${c.example.assertion}${clause} — expected ${c.example.expected}, got ${c.example.actual} — ${only}`;
}

// The clause a check names itself ("... (effect-journal §11)"), when it does.
function clauseOf(name: string): string | null {
  const m = /\(([^()]*§[^()]*)\)\s*$/.exec(name);
  return m?.[1] ?? null;
}

// A trial's failing assertions, the one that decides first (a conclusive failure stands on its own) leading.
function failingChecks(s: ScenarioResult): Assertion[] {
  const out: Assertion[] = [];
  for (const t of s.trials) {
    if (t.verdict !== 'failed') continue;
    const decisive = conclusiveFailure(t);
    if (decisive !== null) out.push(decisive);
    out.push(...t.assertions.filter((a) => !a.passed && a !== decisive));
  }
  return out;
}

/**
 * The check an assertion makes, with what varies between scenarios removed: ids, numbers and hex runs become
 * placeholders, and the moment a check ran ("at the restart", "at the end") does not make it another check.
 */
export function normalisedCheck(a: Pick<Assertion, 'name' | 'expected'>): string {
  return `${normaliseText(a.name)} — expected ${normaliseText(compactJson(a.expected, 200))}`;
}

function normaliseText(text: string): string {
  return text
    .replace(/\b(before|after|at|on)( the [a-z-]+)?\b/gi, '<when>')
    .replace(/[0-9a-f]{16,}/gi, '<hex>')
    .replace(/[A-Za-z_.:-]*\d[\w.:-]*/g, '<id>')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Checks a report's `root-causes` section: exactly what its scenarios give (a report cannot hide or invent one). */
export function verifyRootCauses(section: unknown, scenarios: readonly ScenarioResult[]): string[] {
  const expected = JSON.stringify(rootCauses(scenarios));
  return JSON.stringify(section) === expected ? [] : ['does not group the failed scenarios by their first failing check as they are recorded (recompute: reports/root-causes.ts)'];
}
