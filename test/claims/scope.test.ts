// What the claims kept out is in the verdict and every output: the scope derivation, its wording, verify, and the renderers.
import { describe, expect, it } from 'vitest';
import { claimedScope, needOfReason, verdictStatement } from '../../reports/scope.js';
import { verifyReport } from '../../reports/verify.js';
import { stepSummary, annotationLines } from '../../reports/github-actions.js';
import { reportHtml } from '../../reports/html.js';
import { summaryText } from '../../bin/progress.js';
import { sealReport } from '../../reports/seal.js';
import { mergeReports } from '../../reports/merge.js';
import { buildReport, clone, defaultScenarios, scenario } from '../reports/fixture.js';
import type { Report } from '../../reports/schema.js';

const na = (id: string, reason: string) => scenario(id, [], { reason });

// The fixture seals without a scope (as reports before it did); the runner and merge add it.
function withScope(report: Report): Report {
  const { outcomeDigest: _o, contentHash: _c, ...rest } = clone(report);
  return sealReport({ ...rest, scope: claimedScope(rest.scenarios) });
}

describe('the claimed scope', () => {
  it('names the capability of every not-applicable reason the harness writes', () => {
    expect(['needs sessions', 'needs seeding (fixture rows)', 'needs kxm (effect classes and recovery operations)', 'needs sqliteWal (SQLite in WAL mode: a SQLite-only control)', 'needs tierMode:conservative (implementation is reconciling)', 'needs announced crash point prepare.before-commit', 'needs injectable fault gate_read_fails', 'needs strace on the harness machine (with ptrace permitted)'].map(needOfReason)).toEqual(['sessions', 'seeding', 'kxm', 'sqliteWal', 'tierMode:conservative', 'point:prepare.before-commit', 'fault:gate_read_fails', 'harness:strace']);
  });

  it('groups the excluded scenarios by capability with their families, and says so in the verdict', () => {
    const scope = claimedScope([na('cp10.a', 'needs sessions'), na('session.b', 'needs sessions'), na('sweep.c', 'needs strace on the harness machine (with ptrace permitted)'), { id: 'cp01.x', verdict: 'passed', reason: null }]);
    expect(scope).toEqual({
      complete: false,
      excluded: [
        { capability: 'harness:strace', by: 'harness', count: 1, families: ['sweep'], scenarios: ['sweep.c'] },
        { capability: 'sessions', by: 'journal', count: 2, families: ['cp10', 'session'], scenarios: ['cp10.a', 'session.b'] },
      ],
    });
    expect(verdictStatement('conformant', scope)).toBe('conformant within the claimed scope only: 3 scenario(s) not run because of harness:strace (1), sessions (2)');
    expect(verdictStatement('conformant', claimedScope([]))).toBe('conformant');
    expect(verdictStatement('nonconformant', scope)).toBe('nonconformant');
  });

  it('is recorded in the report and checked by verify', () => {
    const report = withScope(buildReport());
    expect(report.scope?.excluded.map((g) => [g.capability, g.count])).toEqual([['sessions', 1]]);
    expect(verifyReport(report).problems).toEqual([]);
    const { outcomeDigest: _o, contentHash: _c, ...rest } = clone(report);
    const hidden = sealReport({ ...rest, scope: { complete: true, excluded: [] } });
    expect(verifyReport(hidden).problems).toContain('$.scope: differs from the not-applicable scenarios the report holds (what the claims kept out of the run)');
  });

  it('is the same in merged shards as in the unsharded run (ids in code-unit order)', () => {
    const scenarios = [na('session.z', 'needs sessions'), na('cp10.a', 'needs sessions'), ...defaultScenarios().filter((s) => s.verdict !== 'not_applicable')];
    const whole = withScope(buildReport(scenarios));
    const shards = [1, 2].map((index) => withScope(buildReport(scenarios, { shard: { index, count: 2 } })));
    const merged = mergeReports(shards, {});
    expect(merged.scope).toEqual(whole.scope);
    expect(merged.scope?.excluded[0]?.scenarios).toEqual(['cp10.a', 'session.z']);
    expect(merged.outcomeDigest).toBe(whole.outcomeDigest);
  });

  it('is in the terminal summary, the GitHub step summary and annotations, and the HTML page', () => {
    const report = buildReport();
    const text = summaryText(report, 'out/report.json');
    expect(text).toMatch(/^verdict: conformant within the claimed scope only: 1 scenario\(s\) not run because of sessions \(1\)/);
    expect(text).toContain('not tested (excluded by the claims; the verdict holds for the claimed scope only):\n  sessions: 1 scenario(s) of cp10 not tested (the journal does not claim it; --require sessions makes a CI gate fail without it)');
    const md = stepSummary(report, 'out/report.json');
    expect(md).toContain('## ✅ ejc conformance: conformant within the claimed scope only: 1 scenario(s) not run because of sessions (1)');
    expect(md).toContain('### Not tested: excluded by the claims');
    expect(md).toContain('| <code>sessions</code> | 1 | cp10 |');
    // The whole reason, never a cell cut inside "scenario(s)".
    expect(md).toContain('| <code>sessions</code> | 1 | cp10 | the journal does not claim it; --require sessions makes a CI gate fail without it |');
    expect(md).not.toContain('s) of cp10');
    expect(annotationLines(report).some((l) => l.startsWith('::warning title=ejc conformant for the claimed scope only::sessions: 1 scenario(s) of cp10 not tested'))).toBe(true);
    const page = reportHtml(report);
    expect(page).toContain('<h1>conformant within the claimed scope only: 1 scenario(s) not run because of sessions (1):');
    expect(page).toContain('<h2>Not tested: excluded by the claims</h2>');
  });

  it('says nothing is excluded when every scenario applied', () => {
    const report = withScope(buildReport(defaultScenarios().filter((s) => s.verdict !== 'not_applicable')));
    expect(report.scope).toEqual({ complete: true, excluded: [] });
    expect(summaryText(report, null)).not.toContain('not tested');
    expect(stepSummary(report, null)).toContain('## ✅ ejc conformance: conformant\n');
  });
});
