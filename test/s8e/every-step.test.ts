// The every-step S8e sweep end to end against the reference journal (needs `npx tsc -p .`): passages, kills, section verify and tamper.
import { beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { defaultLaunch, runConformance } from '../../runner/run-conformance.js';
import { verifyReport } from '../../reports/verify.js';
import { sealReport } from '../../reports/seal.js';
import type { Report } from '../../reports/schema.js';
import '../../harness/s8e/section-verifier.js';
import type { S8eSweepEntry } from '../../harness/s8e/sweep-entry.js';

const ID = 's8e.kill.every.after-settle';
const BROKEN = fileURLToPath(new URL('../broken/broken-journal.mjs', import.meta.url));

function reseal(r: Report): Report {
  const { outcomeDigest: _o, contentHash: _c, ...rest } = r;
  return sealReport(rest);
}

function sweepOf(r: Report): S8eSweepEntry {
  return (r.sections['s8e'] as Record<string, S8eSweepEntry>)[ID]!;
}

let report: Report;

beforeAll(async () => {
  report = await runConformance({ launch: defaultLaunch(), scenarioPatterns: [ID], tags: [], seed: 1, shard: null, expectFailures: new Set(), keep: 'none', timeoutMs: 10_000, argv: ['run', '--scenario', ID] });
}, 60_000);

describe(`${ID} against the reference journal`, () => {
  it('kills once at each after-settle passage the calibration batch made, including the read-back of the unknown', () => {
    expect(report.verdict).toBe('conformant');
    const e = sweepOf(report);
    // The six new writes and the unknown a15 settle in the batch; a15 is settled again (reconciled) during its read-back.
    expect(e.passages.map((p) => `${p.actionId}/${p.phase}`)).toEqual(['a01/batch', 'a02/batch', 'a04/batch', 'a07/batch', 'a14/batch', 'a15/batch', 'a18/batch', 'a15/readback']);
    expect(e.kills).toBe(8);
    expect(report.scenarios[0]!.trials[0]!.kills.map((k) => [k.point, k.signal])).toEqual(e.passages.map(() => ['boundary:after-settle', 'SIGKILL']));
    expect(e.calibration).toMatchObject({ mode: 'clean', kills: 0, counts: { dispatchAttempts: 8, physicalWrites: 7, duplicateWrites: 0, restartWrites: 0 } });
  });

  it('arms no journal crash point: every kill is at a step boundary, so no point is held and resumed on the way', () => {
    const events = report.scenarios[0]!.trials[0]!.events ?? [];
    expect(events.filter((e) => e.kind === 'kill')).toHaveLength(8);
    // The timeline keeps crash points before routine steps: one held point would show here.
    expect(events.filter((e) => e.kind === 'crashpoint')).toEqual([]);
  });

  it('each killed-and-restarted batch shows the S8e table: 7 writes, none duplicate, none after a restart', () => {
    for (const p of sweepOf(report).passages) {
      expect(p.failedChecks, p.actionId).toEqual([]);
      expect(p.counts, p.actionId).toMatchObject({ physicalWrites: 7, duplicateWrites: 0, restartWrites: 0, cancelledBeforeDispatchAttempts: 0 });
      expect(p.unknownResolvedTo).toBe('replayed_confirmed');
    }
  });

  it('verifies, and the per-scenario counts are the calibration plus every passage', () => {
    expect(verifyReport(report)).toEqual({ ok: true, problems: [] });
    const counts = report.scenarios[0]!.trials[0]!.counts;
    expect(counts.physicalWrites).toBe(7 * 9);
    expect(counts.restarts).toBe(8);
  });

  it('rejects a resealed section claiming a restart write, a missing kill, or a calibration off the table', () => {
    const tampered = structuredClone(report);
    const e = sweepOf(tampered);
    e.passages[2]!.counts.restartWrites = 1;
    e.passages[2]!.counts.duplicateWrites = 1;
    e.passages[4]!.kill = null;
    e.calibration.states.confirmed = 5;
    e.calibration.states.refused = 1;
    e.calibration.actions[0]!.state = 'refused';
    const problems = verifyReport(reseal(tampered)).problems;
    const at = `$.sections.s8e: ["${ID}"]`;
    expect(problems).toContain(`${at}.passages.2.counts.restartWrites: is 1, the S8e table needs 0`);
    expect(problems).toContain(`${at}.counts.duplicateWrites: calibration and passages sum to 1, the scenario's trial counted 0`);
    expect(problems).toContain(`${at}.kills: is 8, 7 passage(s) record a kill`);
    expect(problems).toContain(`${at}.passages.4.kill: is null, needs "boundary:after-settle"`);
    expect(problems).toContain(`${at}.calibration: state confirmed: is 5, the S8e table needs 6`);
  });

  it('rejects an extra claim and an every-step entry whose passages sweep another boundary', () => {
    const tampered = structuredClone(report);
    const e = sweepOf(tampered);
    (e as unknown as Record<string, unknown>)['exactlyOnce'] = true;
    const problems = verifyReport(reseal(tampered)).problems;
    expect(problems.some((p) => p.startsWith(`$.sections.s8e: ["${ID}"]: Unrecognized key`))).toBe(true);
    const other = structuredClone(report);
    sweepOf(other).passages[0]!.boundary = 'after-prepare';
    expect(verifyReport(reseal(other)).problems).toContain(`$.sections.s8e: ["${ID}"].passages.0.boundary: is after-prepare, the entry sweeps after-settle`);
  });
});

describe(`${ID} against a broken journal`, () => {
  it('fails on its calibration batch, skips the kills that would only repeat it, and its honest report verifies', async () => {
    const broken = await runConformance({ launch: { kind: 'module', module: BROKEN, options: { defect: 'ambiguous-settles-committed' } }, scenarioPatterns: [ID], tags: [], seed: 1, shard: null, expectFailures: new Set(), keep: 'none', timeoutMs: 10_000, argv: ['run', '--scenario', ID] });
    expect(broken.verdict).toBe('nonconformant');
    expect(broken.scenarios[0]!.reason).toBe('assertion failed: calibration: the uninterrupted batch matches the S8e table');
    const e = sweepOf(broken);
    expect(e.calibration.unknown[0]!.journalState).toBe('committed');
    expect(e.passages).toEqual([]);
    expect(verifyReport(broken)).toEqual({ ok: true, problems: [] });
  });
});
