// verify checks the binding fields are present and agree with the rest of the report, even after a reseal.
import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../reports/fingerprint.js';
import type { Report } from '../../reports/schema.js';
import { computeOutcomeDigest, sealReport } from '../../reports/seal.js';
import { verifyReport } from '../../reports/verify.js';
import { buildReport, clone } from './fixture.js';

function reseal(r: Report): Report {
  const { outcomeDigest: _o, contentHash: _c, ...rest } = r;
  return sealReport(rest);
}

function problemsAfter(edit: (r: Report) => void, base: Report = buildReport()): string[] {
  const r = clone(base);
  edit(r);
  return verifyReport(reseal(r)).problems;
}

describe('verify: what binds the report to what was tested', () => {
  it('names a report of another schema version in one line', () => {
    const old = clone(buildReport()) as unknown as { schema: { version: number } };
    old.schema.version = 1;
    expect(verifyReport(old).problems).toEqual(['$.schema.version: is 1; this ejc reads version 2 reports: verify it with the ejc version that wrote it']);
  });

  it('requires the fingerprint, environment, settings and harness build', () => {
    for (const field of ['fingerprint', 'environment', 'settings'] as const) {
      const r = clone(buildReport()) as Partial<Report>;
      delete r[field];
      expect(verifyReport(r).problems).toContainEqual(expect.stringMatching(new RegExp(`^\\$\\.${field}: schema:`)));
    }
    const r = clone(buildReport()) as unknown as { harness: { build?: unknown } };
    delete r.harness.build;
    expect(verifyReport(r).problems).toContainEqual(expect.stringMatching(/^\$\.harness\.build: schema:/));
  });

  it('checks the fingerprint digest against its files and the roles against the launch', () => {
    expect(problemsAfter((r) => void (r.fingerprint.files[1]!.sha256 = '0'.repeat(64)))).toEqual([expect.stringMatching(/^\$\.fingerprint\.digest: is [0-9a-f]{64}, its files hash to/)]);
    expect(problemsAfter((r) => void r.fingerprint.files.reverse())).toContain('$.fingerprint.files: not sorted by path');
    const asCommand = problemsAfter((r) => {
      r.implementation.launch = { kind: 'command', command: 'python3 journal.py' };
    });
    expect(asCommand).toContain('$.fingerprint.files: a command launch has one executable, this one has 0');
    expect(asCommand).toContainEqual(expect.stringMatching(/^\$\.reproduce\.run: runs the bundled reference journal, the report's implementation is --cmd "python3 journal.py"/));
    const relabelled = problemsAfter((r) => {
      r.fingerprint = fingerprintOf([{ path: 'my-adapter.mjs', role: 'adapter', sha256: 'a'.repeat(64), bytes: 10 }]);
    });
    expect(relabelled).toContain("$.fingerprint.files: the bundled reference journal's adapter is ejc:reference-impl/adapter.bundle.cjs or ejc:reference-impl/adapter.bundle.js or ejc:reference-impl/adapter.js, not my-adapter.mjs");
  });

  it('checks the reproduce commands against the recorded seed, selection, shard, timeout and launch', () => {
    expect(problemsAfter((r) => void (r.seed = 9))).toEqual(expect.arrayContaining([
      '$.reproduce.run: --seed is 1 in the command, 9 in the report',
      expect.stringMatching(/^\$\.scenarios\[0\]\.reproduce: runs seed 1, the report's seed is 9/),
    ]));
    expect(problemsAfter((r) => void (r.settings.timeoutMs = 5000))).toEqual(['$.reproduce.run: --timeout is 30000 in the command, 5000 in the report']);
    expect(problemsAfter((r) => void (r.selection.tags = ['session']))).toEqual(['$.reproduce.run: --tag is [] in the command, ["session"] in the report']);
    expect(problemsAfter((r) => void (r.reproduce.run = 'ejc run --seed 1 --shard 1/2 --json'))).toEqual(['$.reproduce.run: --shard is "1/2" in the command, null in the report']);
    expect(problemsAfter((r) => void (r.scenarios[1]!.reproduce = 'ejc run --scenario cp01.kill-before-commit --seed 1'))).toEqual(['$.scenarios[1].reproduce: runs --scenario ["cp01.kill-before-commit"], not cp02.after-prepare']);
    expect(problemsAfter((r) => void (r.reproduce.run = 'sh -c "touch /tmp/x"'))).toEqual(['$.reproduce.run: is not an "ejc run" command: sh -c "touch /tmp/x"']);
    expect(problemsAfter((r) => void (r.reproduce.run = 'ejc run --cmd x; rm -rf ~'))).toEqual([expect.stringMatching(/^\$\.reproduce\.run: cannot split the command .* shell operator ;/)]);
    // Flags that do not shape outcomes, and flags this version does not know, are not judged.
    expect(problemsAfter((r) => void (r.reproduce.run = 'npx ejc run --seed=1 --jobs 7 --out o --keep-failed --future-flag 3 --json'))).toEqual([]);
  });

  it('checks expected failures against the verdicts and the environment entries against the shard', () => {
    expect(problemsAfter((r) => void (r.settings.expectFailures = ['cp02.after-prepare']))).toEqual([
      '$.scenarios[1].verdict: cp02.after-prepare is listed in settings.expectFailures but its verdict is passed',
    ]);
    expect(problemsAfter((r) => void (r.environment[0]!.shard = 2))).toEqual(['$.environment: an unsharded report has one entry with shard null, a merged one an entry per shard 1..n, not [2]']);
    const shard = buildReport(undefined, { shard: { index: 2, count: 3 } });
    expect(problemsAfter((r) => void (r.environment[0]!.shard = 1), shard)).toEqual(['$.environment: a report of shard 2/3 has one entry for shard 2, not [1]']);
  });

  it('records a variable observation by its allowance: the raw value stays out of the outcome digest', () => {
    const withObservation = (observed: number, passed: boolean): Report => {
      const r = clone(buildReport());
      const t = r.scenarios[0]!.trials[0]!;
      t.assertions.push({ name: 'notices', expected: 'once or twice (allowed)', actual: passed ? 'once or twice (allowed)' : observed, observed, passed });
      t.counts.disclosures = observed;
      t.variableCounts = ['disclosures'];
      r.counts.disclosures = observed;
      if (!passed) {
        t.verdict = 'failed';
        r.scenarios[0]!.verdict = 'failed';
        r.scenarios[0]!.reason = 'assertion failed: notices';
        r.summary.passed -= 1;
        r.summary.failed += 1;
        r.verdict = 'nonconformant';
      }
      return reseal(r);
    };
    const once = withObservation(1, true);
    const twice = withObservation(2, true);
    expect(verifyReport(once).problems).toEqual([]);
    expect(computeOutcomeDigest(twice)).toBe(computeOutcomeDigest(once));
    expect(twice.contentHash).not.toBe(once.contentHash);
    const never = withObservation(0, false);
    expect(verifyReport(never).problems).toEqual([]);
    expect(computeOutcomeDigest(never)).not.toBe(computeOutcomeDigest(once));
    // Claiming the allowance for a value outside it is caught.
    const lying = clone(never);
    lying.scenarios[0]!.trials[0]!.assertions.at(-1)!.actual = 'once or twice (allowed)';
    expect(verifyReport(reseal(lying)).problems).toContainEqual(expect.stringMatching(/actual: a failed variable observation records its observed value as actual/));
    // Write counts are findings, never variable.
    const hiding = clone(once) as unknown as { scenarios: Array<{ trials: Array<{ variableCounts: string[] }> }> };
    hiding.scenarios[0]!.trials[0]!.variableCounts = ['duplicateWrites'];
    expect(verifyReport(hiding).problems).toContainEqual(expect.stringMatching(/^\$\.scenarios\[0\]\.trials\[0\]\.variableCounts\[0\]: schema:/));
  });

  it('reports a lone surrogate as a problem instead of throwing, and sealing replaces it', () => {
    const r = clone(buildReport());
    r.scenarios[0]!.trials[0]!.stderrTail = ['bad \ud800 byte'];
    const { outcomeDigest: _o, contentHash: _c, ...rest } = r;
    const sealed = sealReport(rest);
    expect(sealed.scenarios[0]!.trials[0]!.stderrTail).toEqual(['bad \ufffd byte']);
    expect(verifyReport(sealed).ok).toBe(true);
    expect(verifyReport({ ...sealed, scenarios: [{ ...sealed.scenarios[0]!, title: 'x\udc00' }, ...sealed.scenarios.slice(1)] }).problems).toEqual([
      '$.scenarios[0].title: holds a lone surrogate, which RFC 8785 canonical JSON refuses; the report cannot be hashed',
    ]);
  });
});
