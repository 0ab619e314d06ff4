// Merging the shards of one run back into the report the unsharded run would have written.
import { canonicalJson } from '../shared/canonical-json.js';
import { EjcError } from '../shared/errors.js';
import { claimBoundary } from './boundary.js';
import { claimedScope } from './scope.js';
import { notTestedOf } from './not-tested.js';
import { reportVerdict, sumCounts, summarize } from './derive.js';
import type { Report, UnsealedReport } from './schema.js';
import { compareIds, ROOT_CAUSES, sealReport } from './seal.js';
import { verifyReport } from './verify.js';

export interface MergeOptions {
  /** Where the merged report will live, for its `reproduce.verify` command. */
  reportPath?: string;
}

/** Merges the complete, disjoint shards of one run; its outcomeDigest equals the unsharded run's. */
export function mergeReports(reports: Report[], options: MergeOptions = {}): Report {
  if (reports.length === 0) throw new EjcError('usage', 'merge needs at least one report');
  reports.forEach((r, i) => {
    const result = verifyReport(r);
    if (!result.ok) throw new EjcError('report_invalid', `report ${i + 1} does not verify: ${result.problems[0]}`);
  });
  reports.forEach((r, i) => {
    if (r.partial !== undefined) {
      throw new EjcError('usage', `cannot merge: report ${i + 1} is partial (--bail stopped it after ${r.partial.stoppedAfter}; ${r.partial.notRun.length} scenario(s) never ran); re-run that shard without --bail`);
    }
  });
  checkSameRun(reports);
  const shards = checkShards(reports);
  const first = shards[0]!;
  const scenarios = shards.flatMap((r) => r.scenarios).sort((a, b) => compareIds(a.id, b.id));
  checkDisjoint(scenarios.map((s) => s.id));
  const summary = summarize(scenarios);
  const { outcomeDigest: _o, contentHash: _c, ...base } = first;
  const merged: UnsealedReport = {
    ...base,
    selection: { ...first.selection, shard: null },
    startedAt: shards.map((r) => r.startedAt).sort()[0]!,
    finishedAt: shards.map((r) => r.finishedAt).sort().at(-1)!,
    // Total work, not wall time: the shards may have run one after another or side by side.
    durationMs: shards.reduce((sum, r) => sum + r.durationMs, 0),
    verdict: reportVerdict(summary),
    // Shards written before the scope existed merge without one, as they were.
    ...(first.scope === undefined ? {} : { scope: claimedScope(scenarios) }),
    // What any shard's machine lacked was not tested for the scenarios that shard ran.
    ...(shards.every((r) => r.notTested === undefined) ? {} : { notTested: notTestedOf(shards.flatMap((r) => r.environment), scenarios) }),
    summary,
    counts: sumCounts(scenarios.flatMap((s) => s.trials)),
    scenarios,
    sections: mergeSections(shards),
    // Shards may run on different machines: each keeps its own environment entry, in shard order.
    environment: shards.flatMap((r) => r.environment),
    // A shard that ran without PID namespaces narrows the whole claim.
    boundary: claimBoundary(first.implementation.capabilities.externalState, shards.flatMap((r) => r.environment)),
    reproduce: {
      run: withoutShardFlag(first.reproduce.run),
      verify: options.reportPath === undefined ? first.reproduce.verify : `npx ejc verify ${options.reportPath}`,
    },
  };
  return sealReport(merged);
}

/** Removes `--shard i/n` (or `--shard=i/n`) from a reproduce command: the merged report is the whole run. */
export function withoutShardFlag(command: string): string {
  return command.replace(/\s--shard(?:=|\s+)\S+/g, '');
}

function checkSameRun(reports: Report[]): void {
  const first = reports[0]!;
  const same: Array<[string, (r: Report) => unknown]> = [
    ['implementation', (r) => r.implementation],
    ['seed', (r) => r.seed],
    ['harness version', (r) => [r.harness.name, r.harness.version]],
    ['harness build', (r) => r.harness.build],
    ['implementation fingerprint', (r) => r.fingerprint.digest],
    ['settings', (r) => r.settings],
    ['scenario selection', (r) => [r.selection.scenarios, r.selection.tags, r.selection.exclude ?? []]],
    ['schema', (r) => r.schema],
  ];
  for (const [what, pick] of same) {
    const expected = canonicalJson(pick(first));
    reports.forEach((r, i) => {
      const actual = canonicalJson(pick(r));
      if (actual !== expected) throw new EjcError('usage', `cannot merge: ${what} differs: report 1 has ${expected}, report ${i + 1} has ${actual}`);
    });
  }
}

// Returns the reports ordered by shard index once they are proven to be exactly shards 1..n of n.
function checkShards(reports: Report[]): Report[] {
  const counts = new Set<number>();
  reports.forEach((r, i) => {
    if (r.selection.shard === null) throw new EjcError('usage', `cannot merge: report ${i + 1} is not a shard (it has no --shard)`);
    counts.add(r.selection.shard.count);
  });
  if (counts.size > 1) throw new EjcError('usage', `cannot merge: shard counts differ (${[...counts].join(', ')})`);
  const n = [...counts][0]!;
  const byIndex = new Map<number, Report>();
  reports.forEach((r, i) => {
    const index = r.selection.shard!.index;
    if (byIndex.has(index)) throw new EjcError('usage', `cannot merge: shard ${index}/${n} is given twice (report ${i + 1})`);
    byIndex.set(index, r);
  });
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) throw new EjcError('usage', `cannot merge: missing shard(s) ${missing.map((i) => `${i}/${n}`).join(', ')}`);
  return [...byIndex.keys()].sort((a, b) => a - b).map((i) => byIndex.get(i)!);
}

function checkDisjoint(sortedIds: string[]): void {
  for (let i = 1; i < sortedIds.length; i++) {
    if (sortedIds[i] === sortedIds[i - 1]) throw new EjcError('usage', `cannot merge: scenario ${sortedIds[i]} appears in more than one shard`);
  }
}

// A pack section is merged only when the shards agree on it; a section that differs per shard needs its pack's own merge.
// The root-cause section is derived from the scenarios: sealing the merged report derives it again from all of them.
function mergeSections(shards: Report[]): Report['sections'] {
  const merged = new Map<string, unknown>();
  for (const r of shards) {
    for (const [name, section] of Object.entries(r.sections)) {
      if (name === ROOT_CAUSES) continue;
      if (!merged.has(name)) merged.set(name, section);
      else if (disjointObjects(merged.get(name), section)) {
        // Sections keyed by scenario id (as run-conformance collects them): each shard holds its own scenarios.
        merged.set(name, { ...(merged.get(name) as object), ...(section as object) });
      } else if (canonicalJson(merged.get(name)) !== canonicalJson(section)) {
        throw new EjcError('usage', `cannot merge: section ${name} differs between shards`);
      }
    }
  }
  return Object.fromEntries(merged);
}

function disjointObjects(a: unknown, b: unknown): boolean {
  const isPlain = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  return isPlain(a) && isPlain(b) && Object.keys(b).every((k) => !Object.hasOwn(a, k));
}
