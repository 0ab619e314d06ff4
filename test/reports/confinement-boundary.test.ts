// The confinement a run had is part of its claim: a fallback run (no PID namespaces) says in its boundary what it
// cannot see, a merged report is as narrow as its narrowest shard, and verify refuses a boundary that claims more.
import { describe, expect, it } from 'vitest';
import { claimBoundary, NAMESPACE_COVER, PROCESS_TREE_EXCLUSION } from '../../reports/boundary.js';
import { mergeReports } from '../../reports/merge.js';
import type { Report } from '../../reports/schema.js';
import { sealReport } from '../../reports/seal.js';
import { verifyReport } from '../../reports/verify.js';
import { buildReport, clone } from './fixture.js';

// A fixture report as a run under the process-tree fallback would have written it.
function asFallback(report: Report): Report {
  const { outcomeDigest: _o, contentHash: _c, ...rest } = clone(report);
  rest.environment = rest.environment.map((e) => ({ ...e, confinement: 'process-tree' as const }));
  rest.boundary = claimBoundary(undefined, rest.environment);
  return sealReport(rest);
}

describe('the confinement in the claim boundary', () => {
  it('covers kernel-enforced kills only under pid-namespace, and names what the fallback cannot see', () => {
    expect(claimBoundary(undefined, [{ confinement: 'pid-namespace' }]).covers).toContain(NAMESPACE_COVER);
    const fallback = claimBoundary(undefined, [{ confinement: 'process-tree' }]);
    expect(fallback.covers).not.toContain(NAMESPACE_COVER);
    expect(fallback.excludes).toContain(PROCESS_TREE_EXCLUSION);
    expect(verifyReport(asFallback(buildReport()))).toEqual({ ok: true, problems: [] });
  });

  it('refuses a fallback report whose boundary claims the namespace guarantee', () => {
    const fallback = asFallback(buildReport());
    const { outcomeDigest: _o, contentHash: _c, ...rest } = clone(fallback);
    rest.boundary = claimBoundary(undefined, [{ confinement: 'pid-namespace' }]);
    expect(verifyReport(sealReport(rest)).problems).toContain('$.boundary: differs from the fixed boundary of the claim (process-crash durability only)');
  });

  it('narrows a merged report to its narrowest shard', () => {
    const shards = [1, 2, 3].map((index) => buildReport(undefined, { shard: { index, count: 3 }, host: `host-${index}` }));
    const merged = mergeReports([shards[0]!, asFallback(shards[1]!), shards[2]!]);
    expect(merged.boundary.excludes).toContain(PROCESS_TREE_EXCLUSION);
    expect(merged.boundary.covers).not.toContain(NAMESPACE_COVER);
    expect(verifyReport(merged)).toEqual({ ok: true, problems: [] });
  });
});
