// Sealing a report: the outcome digest (what was found, independent of when, where and how it was sharded) and the content hash.
import { canonicalJson, sha256Hex } from '../harness/canonical-json.js';
import type { Report, ScenarioResult, Trial, UnsealedReport } from './schema.js';

/** Computes a report's outcomeDigest and contentHash; the input is not modified. */
export function sealReport(r: UnsealedReport): Report {
  const base = stripSeal(r);
  const outcomeDigest = computeOutcomeDigest(base);
  const withDigest = { ...base, outcomeDigest };
  return { ...withDigest, contentHash: sha256Hex(canonicalJson(withDigest)) };
}

/**
 * The outcome view: the report minus timings, host details, stderr tails, the shard and every
 * reproduce command (they name shard flags), scenarios ordered by id. Two runs of the same
 * implementation, seed and selection have equal views however they were sharded.
 */
export function outcomeView(r: UnsealedReport | Report): unknown {
  const { startedAt: _s, finishedAt: _f, durationMs: _d, reproduce: _r, ...rest } = stripSeal(r);
  const { node: _n, platform: _p, ...harness } = rest.harness;
  const { shard: _shard, ...selection } = rest.selection;
  const scenarios = [...rest.scenarios].sort((a, b) => compareIds(a.id, b.id)).map(scenarioOutcome);
  return { ...rest, harness, selection, scenarios };
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

function scenarioOutcome(s: ScenarioResult): unknown {
  const { durationMs: _d, reproduce: _r, trials, ...rest } = s;
  return { ...rest, trials: trials.map(trialOutcome) };
}

function trialOutcome(t: Trial): unknown {
  const { durationMs: _d, stderrTail: _t, ...rest } = t;
  return { ...rest, kills: rest.kills.map(killOutcome) };
}

// Pids, sessions and how many processes a kill met vary from run to run; whether some escaped or survived does not.
function killOutcome(k: Trial['kills'][number]): unknown {
  const { tree, ...rest } = k;
  return tree === undefined ? rest : { ...rest, tree: { escaped: tree.escaped.length, survivors: tree.survivors.length } };
}

function stripSeal(r: UnsealedReport | Report): UnsealedReport {
  const { outcomeDigest: _o, contentHash: _c, ...rest } = r as Report;
  return rest;
}
