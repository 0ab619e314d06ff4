// Comparing a report with its re-run: which scenarios' outcomes differ and how, and whether the same files were tested.
import { canonicalJson } from '../shared/canonical-json.js';
import type { Report } from './schema.js';
import { compareIds, outcomeView, scenarioOutcome } from './seal.js';

export interface RerunComparison {
  /** The outcome digests are equal. */
  sameOutcome: boolean;
  /** One line per differing scenario or report-level field, most telling difference first. */
  outcomeDifferences: string[];
  /** Differences of the implementation files (an executable's build may differ across machines: those are notes). */
  fingerprintProblems: string[];
  fingerprintNotes: string[];
}

/** Compares the recorded report with a fresh run of the same settings, scenario by scenario. */
export function compareRerun(recorded: Report, rerun: Report): RerunComparison {
  const outcomeDifferences: string[] = [];
  const before = new Map(recorded.scenarios.map((s) => [s.id, s]));
  const after = new Map(rerun.scenarios.map((s) => [s.id, s]));
  for (const id of [...new Set([...before.keys(), ...after.keys()])].sort(compareIds)) {
    const a = before.get(id);
    const b = after.get(id);
    if (a === undefined) outcomeDifferences.push(`${id}: only in the rerun (${b!.verdict})`);
    else if (b === undefined) outcomeDifferences.push(`${id}: only in the report (${a.verdict})`);
    else {
      const diffs = differences(scenarioOutcome(a), scenarioOutcome(b), '', 3);
      if (diffs.length > 0) outcomeDifferences.push(`${id}: ${a.verdict === b.verdict ? a.verdict : `${a.verdict} → ${b.verdict}`}; ${diffs.join('; ')}`);
    }
  }
  const { scenarios: _a, counts: _ac, ...restA } = outcomeView(recorded) as Record<string, unknown>;
  const { scenarios: _b, counts: _bc, ...restB } = outcomeView(rerun) as Record<string, unknown>;
  for (const d of differences(restA, restB, '', 5)) outcomeDifferences.push(`report ${d}`);
  const sameOutcome = recorded.outcomeDigest === rerun.outcomeDigest;
  if (!sameOutcome && outcomeDifferences.length === 0) outcomeDifferences.push('the outcome digests differ, yet no scenario or field does: the report was sealed by another ejc version');
  return { sameOutcome, outcomeDifferences: sameOutcome ? [] : outcomeDifferences, ...compareFingerprints(recorded, rerun) };
}

function compareFingerprints(recorded: Report, rerun: Report): Pick<RerunComparison, 'fingerprintProblems' | 'fingerprintNotes'> {
  const fingerprintProblems: string[] = [];
  const fingerprintNotes: string[] = [];
  const before = new Map(recorded.fingerprint.files.map((f) => [f.path, f]));
  const after = new Map(rerun.fingerprint.files.map((f) => [f.path, f]));
  for (const path of [...new Set([...before.keys(), ...after.keys()])].sort(compareIds)) {
    const a = before.get(path);
    const b = after.get(path);
    const role = (a ?? b)!.role;
    const line =
      a === undefined ? `${path} (${role}): only in the rerun` : b === undefined ? `${path} (${role}): only in the report` : a.sha256 !== b.sha256 ? `${path} (${role}): sha256 ${a.sha256} in the report, ${b.sha256} now` : null;
    if (line === null) continue;
    (role === 'executable' ? fingerprintNotes : fingerprintProblems).push(line);
  }
  return { fingerprintProblems, fingerprintNotes };
}

// The first `limit` paths where two JSON values differ, each as "path: before → after".
function differences(a: unknown, b: unknown, path: string, limit: number): string[] {
  const out: string[] = [];
  const walk = (x: unknown, y: unknown, at: string): void => {
    if (out.length >= limit || (x === undefined ? y === undefined : y !== undefined && canonicalJson(x) === canonicalJson(y))) return;
    if (isObject(x) && isObject(y)) {
      for (const k of [...new Set([...Object.keys(x), ...Object.keys(y)])].sort(compareIds)) walk(x[k], y[k], `${at}.${k}`);
    } else if (Array.isArray(x) && Array.isArray(y)) {
      for (let i = 0; i < Math.max(x.length, y.length); i++) walk(x[i], y[i], `${at}[${i}]`);
    } else {
      out.push(`${at.replace(/^\./, '') || '(value)'}: ${show(x)} → ${show(y)}`);
    }
  };
  walk(a, b, path);
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function show(v: unknown): string {
  if (v === undefined) return '(absent)';
  const text = JSON.stringify(v);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
