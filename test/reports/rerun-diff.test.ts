// compareRerun names each scenario whose outcome differs, and tells an implementation file change from an interpreter build.
import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../reports/fingerprint.js';
import { compareRerun } from '../../reports/rerun-diff.js';
import type { Report } from '../../reports/schema.js';
import { sealReport } from '../../reports/seal.js';
import { buildReport, clone, scenario, trial } from './fixture.js';

function reseal(r: Report): Report {
  const { outcomeDigest: _o, contentHash: _c, ...rest } = r;
  return sealReport(rest);
}

describe('compareRerun', () => {
  it('is silent for an equal outcome, whatever the timings', () => {
    const a = buildReport();
    const b = clone(a);
    b.durationMs = 1;
    b.scenarios[0]!.durationMs = 2;
    expect(compareRerun(a, reseal(b))).toEqual({ sameOutcome: true, outcomeDifferences: [], fingerprintProblems: [], fingerprintNotes: [] });
  });

  it('lists every differing scenario with its first differences, and scenarios present on one side only', () => {
    const a = buildReport();
    const b = clone(a);
    const failed = trial('t1', { assertions: [{ name: 'writes', expected: 1, actual: 2, passed: false }] });
    b.scenarios[1] = scenario('cp02.after-prepare', [failed]);
    b.scenarios.splice(2, 1);
    b.scenarios.push(scenario('cp99.new', [trial('t1')]));
    const cmp = compareRerun(a, reseal(b));
    expect(cmp.sameOutcome).toBe(false);
    expect(cmp.outcomeDifferences).toEqual([
      'cp02.after-prepare: passed → failed; trials[0].assertions[0].actual: 1 → 2; trials[0].assertions[0].passed: true → false; trials[0].assertions[1]: {"name":"gate","expected":"pass","actual":"pass","passed":true} → (absent)',
      'cp04.after-settle: only in the report (passed)',
      'cp99.new: only in the rerun (passed)',
    ]);
  });

  it('separates implementation file changes (problems) from an interpreter built differently (notes)', () => {
    const withFiles = (exe: string, script: string): Report => {
      const r = clone(buildReport());
      r.fingerprint = fingerprintOf([
        { path: '/usr/bin/python3.11', role: 'executable', sha256: exe.repeat(64), bytes: 1 },
        { path: 'journal.py', role: 'argument', sha256: script.repeat(64), bytes: 1 },
      ]);
      return r;
    };
    const cmp = compareRerun(withFiles('a', 'b'), withFiles('c', 'd'));
    expect(cmp.fingerprintNotes).toEqual([`/usr/bin/python3.11 (executable): sha256 ${'a'.repeat(64)} in the report, ${'c'.repeat(64)} now`]);
    expect(cmp.fingerprintProblems).toEqual([`journal.py (argument): sha256 ${'b'.repeat(64)} in the report, ${'d'.repeat(64)} now`]);
  });
});
