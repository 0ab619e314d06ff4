// A partial report (--bail) verifies only as what it is, and merge will not fold it into a whole run.
import { describe, expect, it } from 'vitest';
import { mergeReports } from '../../reports/merge.js';
import { sealReport } from '../../reports/seal.js';
import type { Report } from '../../reports/schema.js';
import { verifyReport } from '../../reports/verify.js';
import { buildReport, withFirstScenarioFailed } from './fixture.js';

function withPartial(r: Report, partial: Report['partial']): Report {
  const { outcomeDigest: _o, contentHash: _c, ...rest } = r;
  return sealReport({ ...rest, partial });
}

describe('partial reports', () => {
  it('a partial report that claims conformance, or stopped after a pass, does not verify', () => {
    const report = withPartial(buildReport(), { reason: 'bail', stoppedAfter: 'cp04.after-settle', notRun: ['cp99.never'] });
    expect(verifyReport(report).problems).toEqual([
      '$.partial.stoppedAfter: cp04.after-settle is passed; a run stops only at a failure',
      '$.partial: a partial report cannot be conformant',
    ]);
    const unknown = withPartial(buildReport(), { reason: 'bail', stoppedAfter: 'cp77.elsewhere', notRun: [] });
    expect(verifyReport(unknown).problems[0]).toBe('$.partial.stoppedAfter: cp77.elsewhere is not among the scenarios the report holds');
  });

  it('a valid partial shard verifies, its mark is part of the outcome digest, and merge refuses it', () => {
    const failing = withFirstScenarioFailed(buildReport(undefined, { shard: { index: 1, count: 2 } }));
    const s = failing.scenarios[0]!;
    const whole = withPartial(failing, undefined);
    const partial = withPartial(failing, { reason: 'bail', stoppedAfter: s.id, notRun: ['cp99.never'] });
    expect(verifyReport(partial)).toEqual({ ok: true, problems: [] });
    expect(partial.outcomeDigest).not.toBe(whole.outcomeDigest);
    expect(() => mergeReports([partial, buildReport(undefined, { shard: { index: 2, count: 2 } })])).toThrow(
      new RegExp(`report 1 is partial \\(--bail stopped it after ${s.id.replace(/\./g, '\\.')}; 1 scenario\\(s\\) never ran\\); re-run that shard without --bail`),
    );
  });
});
