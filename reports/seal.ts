// Sealing a report: the outcome digest (what was found, independent of when, where and how it was sharded) and the content hash.
import { canonicalJson, sha256Hex, wellFormedJson } from '../shared/canonical-json.js';
import { CountKeys, zeroCounts } from './schema.js';
import type { Assertion, Counts, Report, ScenarioResult, Trial, UnsealedReport } from './schema.js';

/**
 * Computes a report's outcomeDigest and contentHash; the input is not modified. Lone surrogates an
 * implementation sent become U+FFFD first: RFC 8785 cannot canonicalize them, and UTF-8 cannot carry them.
 */
export function sealReport(r: UnsealedReport): Report {
  const base = wellFormedJson(stripSeal(r));
  const outcomeDigest = computeOutcomeDigest(base);
  const withDigest = { ...base, outcomeDigest };
  return { ...withDigest, contentHash: sha256Hex(canonicalJson(withDigest)) };
}

/**
 * The outcome view: what was found, for an implementation, seed, selection and settings. Left out:
 * timings, reproduce commands (they name shard flags), the shard, where it ran (environment, node,
 * platform), which build and which files (harness.build, fingerprint: `verify --rerun` compares those
 * itself), stderr tails, trial timelines, and the raw value of every observation the contract lets vary (an
 * assertion's `observed`, a trial's `variableCounts`): so the digest is equal across machines,
 * working directories, load and sharding, and differs when a conformance finding does.
 */
export function outcomeView(r: UnsealedReport | Report): unknown {
  const { startedAt: _s, finishedAt: _f, durationMs: _d, reproduce: _r, fingerprint: _fp, environment: _e, counts: _c, ...rest } = stripSeal(r);
  const { node: _n, platform: _p, build: _b, ...harness } = rest.harness;
  const { shard: _shard, ...selection } = rest.selection;
  const scenarios = [...rest.scenarios].sort((a, b) => compareIds(a.id, b.id)).map(scenarioOutcome);
  const counts = stableCounts(rest.scenarios.flatMap((s) => s.trials));
  return { ...rest, harness, selection, counts, scenarios };
}

/** SHA-256 hex of the canonical JSON of the outcome view. */
export function computeOutcomeDigest(r: UnsealedReport | Report): string {
  return sha256Hex(canonicalJson(outcomeView(r)));
}

/** SHA-256 hex of the canonical JSON of everything but contentHash. */
export function computeContentHash(r: Report): string {
  const { contentHash: _c, ...rest } = r;
  return sha256Hex(canonicalJson(rest));
}

/** Code-unit order, the same order canonical JSON uses for keys, so it never depends on locale. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One scenario's part of the outcome view: what `verify --rerun` compares scenario by scenario. */
export function scenarioOutcome(s: ScenarioResult): unknown {
  const { durationMs: _d, reproduce: _r, trials, ...rest } = s;
  return { ...rest, trials: trials.map(trialOutcome) };
}

// The timeline's times vary run to run, and two concurrent drivers interleave differently: not outcome.
function trialOutcome(t: Trial): unknown {
  const { durationMs: _d, stderrTail: _t, events: _e, variableCounts: _v, counts, assertions, ...rest } = t;
  return { ...rest, kills: rest.kills.map(killOutcome), counts: stableTrialCounts(t), assertions: assertions.map(assertionOutcome) };
}

function assertionOutcome(a: Assertion): unknown {
  const { observed: _o, ...rest } = a;
  return rest;
}

// Pids, sessions and how many processes a kill met vary from run to run; whether some escaped or survived does not.
// Nor does the message count before the kill (seq): where two drivers race (generated trials), how many points the
// killed one announced first depends on who won; where it died is its point, driver and signal.
function killOutcome(k: Trial['kills'][number]): unknown {
  const { tree, seq: _seq, ...rest } = k;
  return tree === undefined ? rest : { ...rest, tree: { escaped: tree.escaped.length, survivors: tree.survivors.length } };
}

// A count the trial marks as variable is the contract's allowance, not a finding: it is dropped from the view.
function stableTrialCounts(t: Pick<Trial, 'counts' | 'variableCounts'>): Partial<Counts> {
  const variable = new Set<string>(t.variableCounts ?? []);
  return Object.fromEntries(CountKeys.filter((k) => !variable.has(k)).map((k) => [k, t.counts[k]]));
}

function stableCounts(trials: ReadonlyArray<Pick<Trial, 'counts' | 'variableCounts'>>): Counts {
  const total = zeroCounts();
  for (const t of trials) for (const [k, v] of Object.entries(stableTrialCounts(t))) total[k as keyof Counts] += v;
  return total;
}

function stripSeal(r: UnsealedReport | Report): UnsealedReport {
  const { outcomeDigest: _o, contentHash: _c, ...rest } = r as Report;
  return rest;
}
