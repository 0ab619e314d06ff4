import { afterEach, describe, expect, it } from 'vitest';
import { reportVerdict, sumCounts, summarize } from '../../reports/derive.js';
import type { Report } from '../../reports/schema.js';
import { computeContentHash, sealReport } from '../../reports/seal.js';
import { registerSectionVerifier, verifyReport } from '../../reports/verify.js';
import { buildReport, clone, scenario, trial } from './fixture.js';

// Re-derives totals and reseals, so a test isolates the one defect it planted.
function rederive(r: Report): Report {
  const summary = summarize(r.scenarios);
  return reseal({ ...r, summary, verdict: reportVerdict(summary), counts: sumCounts(r.scenarios.flatMap((s) => s.trials)) });
}

function reseal(r: Report): Report {
  const { outcomeDigest: _o, contentHash: _c, ...rest } = r;
  return sealReport(rest);
}

function problemsOf(value: unknown): string[] {
  const result = verifyReport(value);
  expect(result.ok).toBe(false);
  return result.problems;
}

describe('verifyReport', () => {
  it('accepts a well-formed conformant report', () => {
    const r = buildReport();
    expect(r.verdict).toBe('conformant');
    expect(verifyReport(r)).toEqual({ ok: true, problems: [] });
    expect(verifyReport(JSON.parse(JSON.stringify(r)))).toEqual({ ok: true, problems: [] });
  });

  it('refuses a report that calls expected failures conformant (an older runner wrote that)', () => {
    const failed = trial('t1', { assertions: [{ name: 'gate refuses', expected: 'refuse', actual: 'pass', passed: false }] });
    const scenarios = [scenario('cp02.after-prepare', [failed], { verdict: 'expected_failure' }), scenario('cp04.after-settle', [trial('t1')])];
    const honest = buildReport(scenarios);
    expect(honest.verdict).toBe('nonconformant');
    expect(verifyReport(honest)).toEqual({ ok: true, problems: [] });
    const { outcomeDigest: _o, contentHash: _c, ...rest } = honest;
    expect(problemsOf(sealReport({ ...rest, verdict: 'conformant' }))).toContain('$.verdict: is conformant, the summary derives nonconformant');
  });

  it('names the schema path of a missing or malformed field', () => {
    const r = clone(buildReport()) as Record<string, unknown>;
    delete r['seed'];
    expect(problemsOf(r)).toEqual([expect.stringMatching(/^\$\.seed: schema:/)]);
    const bad = clone(buildReport());
    (bad.scenarios[1]!.trials[0]!.kills[0] as { seq: number }).seq = -1;
    expect(problemsOf(bad)[0]).toMatch(/^\$\.scenarios\[1\]\.trials\[0\]\.kills\[0\]\.seq: schema:/);
  });

  it('rejects a field the schema does not know, even when resealed', () => {
    const r = clone(buildReport()) as Report & { certifiedBy?: string };
    r.certifiedBy = 'someone';
    const { outcomeDigest: _o, contentHash: _c, ...rest } = r;
    expect(problemsOf(sealReport(rest))).toContain('$.certifiedBy: unknown field');
  });

  it('detects a changed field through the content hash', () => {
    const r = clone(buildReport());
    r.startedAt = '2026-01-02T00:00:00.000Z';
    expect(problemsOf(r)).toEqual([expect.stringMatching(/^\$\.contentHash: /)]);
  });

  it('detects a wrong outcome digest even when the content hash was recomputed', () => {
    const r = clone(buildReport());
    r.outcomeDigest = 'f'.repeat(64);
    r.contentHash = computeContentHash(r);
    expect(problemsOf(r)).toEqual([expect.stringMatching(/^\$\.outcomeDigest: /)]);
  });

  it('detects counts that are not the sum over trials', () => {
    const r = clone(buildReport());
    r.counts.physicalWrites += 1;
    expect(problemsOf(reseal(r))).toEqual([expect.stringMatching(/^\$\.counts\.physicalWrites: is 7, the trials sum to 6/)]);
  });

  it('detects a trial whose kill count disagrees with its kills', () => {
    const r = clone(buildReport());
    r.scenarios[0]!.trials[0]!.counts.kills = 2;
    expect(problemsOf(rederive(r))).toEqual(['$.scenarios[0].trials[0].counts.kills: is 2, the trial records 1 kill(s)']);
  });

  it('detects a summary that is not derived from the scenarios', () => {
    const r = clone(buildReport());
    r.summary.passed += 1;
    expect(problemsOf(reseal(r))).toEqual(['$.summary.passed: is 5, the scenarios derive 4']);
  });

  it('detects a trial verdict that its assertions do not support', () => {
    const r = clone(buildReport());
    r.scenarios[1]!.trials[0]!.assertions[0]!.passed = false;
    expect(problemsOf(rederive(r))).toEqual(['$.scenarios[1].trials[0].verdict: is passed, its evidence derives failed']);
  });

  it('detects a scenario verdict its trials do not support', () => {
    const r = clone(buildReport());
    r.scenarios[0]!.verdict = 'expected_failure';
    r.settings.expectFailures = ['cp01.kill-before-commit'];
    r.reproduce.run += ' --expect-failures known.txt';
    expect(problemsOf(rederive(r))).toEqual(['$.scenarios[0].verdict: is expected_failure, its trials derive stale_expected_failure']);
  });

  it('detects a scenario without trials that claims to have passed', () => {
    const r = clone(buildReport());
    r.scenarios[3]!.verdict = 'passed';
    r.scenarios[3]!.reason = null;
    expect(problemsOf(rederive(r))).toEqual([
      '$.scenarios[3].verdict: is passed with no trials',
      '$.scenarios[3].reason: a scenario without trials must say why',
    ]);
  });

  it('detects a report verdict its summary does not support', () => {
    const r = clone(buildReport());
    r.scenarios[2]!.trials[0]!.kills[0]!.signal = 'SIGTERM';
    r.scenarios[2]!.trials[0]!.verdict = 'inconclusive';
    r.scenarios[2]!.verdict = 'inconclusive';
    const derived = rederive(r);
    expect(verifyReport(derived).ok).toBe(true);
    expect(derived.verdict).toBe('inconclusive');
    derived.verdict = 'conformant';
    expect(problemsOf(reseal(derived))).toEqual(['$.verdict: is conformant, the summary derives inconclusive']);
  });

  it('refuses a passed crash trial that was never killed, or not by SIGKILL', () => {
    const never = clone(buildReport());
    never.scenarios[1]!.trials[0]!.kills = [];
    never.scenarios[1]!.trials[0]!.counts.kills = 0;
    expect(problemsOf(rederive(never))).toEqual([
      '$.scenarios[1].trials[0].verdict: is passed, its evidence derives inconclusive',
      '$.scenarios[1].trials[0].kills: a passed trial planned 1 kill(s) but recorded 0 SIGKILL of 0',
    ]);
    const exited = clone(buildReport());
    exited.scenarios[1]!.trials[0]!.kills[0]!.signal = null;
    expect(problemsOf(rederive(exited))).toContain('$.scenarios[1].trials[0].kills: a passed trial planned 1 kill(s) but recorded 0 SIGKILL of 1');
  });

  it('refuses a conformant report that saw duplicate or restart writes', () => {
    const r = clone(buildReport());
    r.scenarios[0]!.trials[1]!.counts.duplicateWrites = 1;
    r.scenarios[2]!.trials[0]!.counts.restartWrites = 2;
    expect(problemsOf(rederive(r))).toEqual([
      '$.counts.duplicateWrites: a conformant report has 1, must be 0',
      '$.counts.restartWrites: a conformant report has 2, must be 0',
    ]);
  });

  it('refuses canary values anywhere, naming the path', () => {
    const r = clone(buildReport());
    r.scenarios[2]!.trials[1]!.assertions[0]!.actual = { leaked: 'token=EJC-CANARY-x7Q2' };
    expect(problemsOf(rederive(r))).toEqual([
      '$.scenarios[2].trials[1].assertions[0].actual.leaked: holds a canary value; a report may hold only hashes of secrets',
    ]);
  });

  it('refuses a boundary wider than the fixed one', () => {
    const r = clone(buildReport());
    r.boundary.excludes = r.boundary.excludes.filter((e) => !e.startsWith('power loss'));
    expect(problemsOf(reseal(r))).toEqual([expect.stringMatching(/^\$\.boundary: differs/)]);
  });

  it('rejects a scenario listed twice', () => {
    const r = clone(buildReport());
    r.scenarios.push(clone(r.scenarios[0]!));
    expect(problemsOf(rederive(r))).toEqual(['$.scenarios[5].id: scenario cp01.kill-before-commit appears more than once']);
  });

  describe('section verifiers', () => {
    afterEach(() => registerSectionVerifier('test-pack', () => []));

    it('runs the registered verifier for its section and accepts unknown sections', () => {
      registerSectionVerifier('test-pack', (section) =>
        (section as { physicalWrites?: number }).physicalWrites === 7 ? [] : ['physicalWrites: must be 7'],
      );
      const r = clone(buildReport());
      r.sections = { 'test-pack': { physicalWrites: 6 }, 'other-pack': { anything: true } };
      expect(problemsOf(reseal(r))).toEqual(['$.sections.test-pack: physicalWrites: must be 7']);
      r.sections['test-pack'] = { physicalWrites: 7 };
      expect(verifyReport(reseal(r)).ok).toBe(true);
    });
  });

  it('derives inconclusive, not passed, for a crash trial whose planned point was never reached', () => {
    const t = trial('t1', { kills: [], counts: { ...trial('x').counts, kills: 0 }, inconclusiveReason: 'crash point never reached' });
    expect(t.verdict).toBe('inconclusive');
    const r = buildReport([scenario('cp02.after-prepare', [t])]);
    expect(r.verdict).toBe('inconclusive');
    expect(verifyReport(r).ok).toBe(true);
  });
});
