// A wire-protocol journal that announces its crash points and goes on without its resume fails both
// claims.crash-points-block scenarios on one seed, whatever the load: the harness looks and resumes only once /proc shows
// the held driver blocked. Conformant journals that block (a Python one) or are slow and poll while held still pass.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../runner/run-conformance.js';
import type { Report } from '../../reports/schema.js';
import { expectFailed } from '../conformance/realistic-target.js';

const realistic = (await import(new URL('../broken/realistic/index.mjs', import.meta.url).href)) as { GAP_COMMANDS: string[]; realisticModule: (name: string) => string };
const SCENARIOS = ['claims.crash-points-block', 'claims.crash-points-block.beyond-prepare'];
const PROXY = fileURLToPath(new URL('../fixtures/allowed/held-python-proxy.py', import.meta.url));
const HELD = /^the driver held at .* sends nothing and changes none of its files until resumed$/;

function run(command: string, scenarios: readonly string[]): Promise<Report> {
  return runConformance({ launch: { kind: 'command', command }, scenarioPatterns: [...scenarios], tags: [], seed: 1, shard: null, expectFailures: new Set(), keep: 'none', timeoutMs: 60_000, argv: ['run'] });
}

/** Each hold's evidence (an assertion's observed value): whether /proc proved the driver blocked. */
function holds(report: Report): Array<{ passed: boolean; proven: boolean }> {
  return report.scenarios.flatMap((s) => s.trials.flatMap((t) => t.assertions.filter((a) => HELD.test(a.name)).map((a) => ({ passed: a.passed, proven: (a.observed as { proven?: boolean } | undefined)?.proven === true }))));
}

// Side by side: the catches must not depend on the machine being idle, and the file's wall time stays small.
describe.concurrent('announced crash points that do not block', () => {
  for (const name of realistic.GAP_COMMANDS) {
    it(`realistic/${name} fails both crash-points-block scenarios on seed 1`, async () => {
      const report = await run(`node ${realistic.realisticModule(name)}`, SCENARIOS);
      expectFailed(report, SCENARIOS);
      const findings = report.scenarios.flatMap((s) => s.trials.flatMap((t) => t.assertions.filter((a) => !a.passed && a.conclusive === true).map((a) => a.name)));
      expect(findings.filter((n) => /stays held at each announced crash point/.test(n))).toHaveLength(2);
    });
  }

  // Plain, its renewals change the file's bytes; with --same-bytes they leave them as they were and only its times
  // move. Both fail on both holds, on any load (the look once read the plain one empty twice, mid-rewrite, and passed it).
  it.each([[''], [' --same-bytes']])('realistic/lease-renewed-while-held%s, which sends nothing but writes while held, fails on its files', async (flag) => {
    const report = await run(`node ${realistic.realisticModule('lease-renewed-while-held')}${flag}`, ['claims.crash-points-block']);
    // On a mismatch the whole trial is the evidence: which hold passed or never happened, and why.
    const trials = JSON.stringify(report.scenarios.flatMap((s) => s.trials.map((t) => ({ verdict: t.verdict, inconclusive: t.inconclusiveReason, violations: t.violations, assertions: t.assertions.map((a) => [a.name, a.passed, a.actual, a.observed]) }))), null, 1);
    expect(report.scenarios.map((s) => s.verdict), trials).toEqual(['failed']);
    const failed = report.scenarios.flatMap((s) => s.trials.flatMap((t) => t.assertions.filter((a) => HELD.test(a.name) && !a.passed).map((a) => [a.conclusive, a.actual])));
    expect(failed, trials).toEqual([[true, 'changed while held: writer.lease'], [true, 'changed while held: writer.lease']]);
  });

  it('a Python journal that blocks at each announced point passes, with its holds proven blocked from /proc', async () => {
    const report = await run(`python3 ${PROXY}`, SCENARIOS);
    expect(report.scenarios.map((s) => [s.id, s.verdict])).toEqual(SCENARIOS.map((id) => [id, 'passed']));
    const seen = holds(report);
    expect(seen).toHaveLength(11);
    expect(seen.every((h) => h.passed)).toBe(true);
    expect(seen.some((h) => h.proven)).toBe(true);
  });

  it('a slow Python journal that polls stdin while held is never flagged: its holds end unproven and pass', async () => {
    const report = await run(`python3 ${PROXY} --slow`, ['claims.crash-points-block']);
    expect(report.scenarios.map((s) => s.verdict)).toEqual(['passed']);
    expect(holds(report)).toEqual([{ passed: true, proven: false }, { passed: true, proven: false }]);
  });
});
