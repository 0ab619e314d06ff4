import { describe, expect, it } from 'vitest';
import { mergeReports, withoutShardFlag } from '../../reports/merge.js';
import { sealReport } from '../../reports/seal.js';
import type { Report } from '../../reports/schema.js';
import { verifyReport } from '../../reports/verify.js';
import { buildReport, clone, withFirstScenarioFailed } from './fixture.js';
import { fingerprintOf } from '../../reports/fingerprint.js';

function reseal(r: Report): Report {
  const { outcomeDigest: _o, contentHash: _c, ...rest } = r;
  return sealReport(rest);
}

describe('mergeReports', () => {
  it('merges shards into the unsharded outcome, and the result verifies', () => {
    const whole = buildReport();
    const shards = [1, 2, 3].map((index) => buildReport(undefined, { shard: { index, count: 3 }, host: `host-${index}` }));
    expect(shards.map((s) => s.scenarios.length)).toEqual([2, 2, 1]);
    const merged = mergeReports([shards[2]!, shards[0]!, shards[1]!], { reportPath: 'merged/report.json' });
    expect(verifyReport(merged)).toEqual({ ok: true, problems: [] });
    expect(merged.outcomeDigest).toBe(whole.outcomeDigest);
    expect(merged.selection.shard).toBeNull();
    expect(merged.counts).toEqual(whole.counts);
    expect(merged.summary).toEqual(whole.summary);
    expect(merged.verdict).toBe('conformant');
    expect(merged.scenarios.map((s) => s.id)).toEqual(whole.scenarios.map((s) => s.id));
    expect(merged.reproduce).toEqual({ run: 'ejc run --seed 1 --json', verify: 'npx ejc verify merged/report.json' });
  });

  it('re-derives a nonconformant verdict when one shard failed', () => {
    const shard1 = buildReport(undefined, { shard: { index: 1, count: 2 } });
    const failing = withFirstScenarioFailed(buildReport(undefined, { shard: { index: 2, count: 2 } }));
    const merged = mergeReports([shard1, reseal(failing)]);
    expect(merged.verdict).toBe('nonconformant');
    expect(merged.summary.failed).toBe(1);
    expect(verifyReport(merged).ok).toBe(true);
  });

  it('merges shards that each failed, their root causes derived again from every scenario', () => {
    const failing = (index: number) => reseal(withFirstScenarioFailed(buildReport(undefined, { shard: { index, count: 2 } })));
    const shards = [failing(1), failing(2)];
    expect(shards.every((s) => Array.isArray(s.sections['root-causes']))).toBe(true);
    const merged = mergeReports(shards);
    expect(merged.summary.failed).toBe(2);
    const causes = merged.sections['root-causes'] as Array<{ scenarios: string[] }>;
    expect(causes.flatMap((c) => c.scenarios).sort()).toEqual(merged.scenarios.filter((s) => s.verdict === 'failed').map((s) => s.id).sort());
    expect(verifyReport(merged).ok).toBe(true);
  });

  it('refuses incomplete, duplicated, mismatched or unsharded inputs, naming the mismatch', () => {
    const s = (index: number, count = 3) => buildReport(undefined, { shard: { index, count } });
    expect(() => mergeReports([s(1), s(3)])).toThrow(/missing shard\(s\) 2\/3/);
    expect(() => mergeReports([s(1), s(1), s(2), s(3)])).toThrow(/shard 1\/3 is given twice/);
    expect(() => mergeReports([s(1), s(2, 2)])).toThrow(/shard counts differ \(3, 2\)/);
    expect(() => mergeReports([buildReport()])).toThrow(/report 1 is not a shard/);
    const otherSeed = clone(s(2));
    otherSeed.seed = 2;
    otherSeed.reproduce.run = otherSeed.reproduce.run.replace('--seed 1', '--seed 2');
    for (const sc of otherSeed.scenarios) sc.reproduce = sc.reproduce.replace('--seed 1', '--seed 2');
    expect(() => mergeReports([s(1), reseal(otherSeed), s(3)])).toThrow(/seed differs: report 1 has 1, report 2 has 2/);
    const otherImpl = clone(s(2));
    otherImpl.implementation.version = '9.9.9';
    expect(() => mergeReports([s(1), reseal(otherImpl), s(3)])).toThrow(/implementation differs/);
    const otherHarness = clone(s(3));
    otherHarness.harness.version = '0.2.0';
    expect(() => mergeReports([s(1), s(2), reseal(otherHarness)])).toThrow(/harness version differs/);
    try {
      mergeReports([s(1)]);
    } catch (error) {
      expect((error as { code: string }).code).toBe('usage');
    }
  });

  it('requires one harness build, one implementation fingerprint and one settings record; keeps each shard\'s environment', () => {
    const s = (index: number) => buildReport(undefined, { shard: { index, count: 2 }, host: `host-${index}` });
    const otherBuild = clone(s(2));
    otherBuild.harness.build.digest = 'e'.repeat(64);
    expect(() => mergeReports([s(1), reseal(otherBuild)])).toThrow(/harness build differs/);
    const otherImpl = clone(s(2));
    otherImpl.fingerprint = fingerprintOf([{ path: 'ejc:reference-impl/adapter.js', role: 'adapter', sha256: 'f'.repeat(64), bytes: 812 }]);
    expect(() => mergeReports([s(1), reseal(otherImpl)])).toThrow(/implementation fingerprint differs/);
    const otherTimeout = clone(s(2));
    otherTimeout.settings.timeoutMs = 5000;
    otherTimeout.reproduce.run += ' --timeout 5000';
    expect(() => mergeReports([s(1), reseal(otherTimeout)])).toThrow(/settings differs/);
    const merged = mergeReports([s(2), s(1)]);
    expect(merged.environment.map((e) => [e.shard, e.trialFs])).toEqual([[1, 'fs-of-host-1'], [2, 'fs-of-host-2']]);
    expect(merged.outcomeDigest).toBe(buildReport().outcomeDigest);
  });

  it('refuses to launder a tampered shard by resealing it', () => {
    const tampered = clone(buildReport(undefined, { shard: { index: 1, count: 2 } }));
    tampered.scenarios[0]!.title = 'edited';
    expect(() => mergeReports([tampered, buildReport(undefined, { shard: { index: 2, count: 2 } })])).toThrow(/report 1 does not verify: \$\.outcomeDigest/);
  });

  it('strips only the shard flag from a reproduce command', () => {
    expect(withoutShardFlag('ejc run --impl x.js --shard 2/4 --seed 3 --json')).toBe('ejc run --impl x.js --seed 3 --json');
    expect(withoutShardFlag('ejc run --shard=2/4 --json')).toBe('ejc run --json');
  });
});
