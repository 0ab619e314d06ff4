// Same seed, same outcome digest on a loaded machine: the race-bearing scenarios, run side by side with CPU burners.
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultLaunch, runConformance } from '../../runner/run-conformance.js';
import type { Report } from '../../reports/schema.js';
import { scenarioOutcome } from '../../reports/seal.js';

const ORDERED = fileURLToPath(new URL('../fixtures/adapters/ordered-resumes.mjs', import.meta.url));

const RACES = ['cp10.session.concurrent-resume', 'cp10.session.kill-between-notice-and-sweep', 'cp07.concurrent-prepare.race', 'cp07.concurrent-prepare.killed-holder', 'cp07.concurrent-prepare.interleaved'];
const RUNS = 3;

// Busy loops, one more than there are cores, for the duration of `body`; each is ended by its own pid.
async function withBurners<T>(body: () => Promise<T>): Promise<T> {
  const burners: ChildProcess[] = Array.from({ length: availableParallelism() + 1 }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  try {
    return await body();
  } finally {
    await Promise.all(
      burners.map(
        (b) =>
          new Promise<void>((done) => {
            if (b.exitCode !== null || b.signalCode !== null) return done();
            b.once('exit', () => done());
            b.kill('SIGKILL');
          }),
      ),
    );
  }
}

function run(): Promise<Report> {
  return runConformance({
    launch: defaultLaunch(),
    scenarioPatterns: RACES,
    tags: [],
    seed: 5,
    shard: null,
    expectFailures: new Set(),
    keep: 'none',
    timeoutMs: 30_000,
    // More lanes than cores, and the runs side by side: the drivers of different races interleave.
    jobs: RACES.length,
    argv: ['run'],
  });
}

describe('outcome digest under load', () => {
  it(`is equal across ${RUNS} concurrent same-seed runs of the race-bearing scenarios with CPU burners`, async () => {
    const reports = await withBurners(() => Promise.all(Array.from({ length: RUNS }, run)));
    for (const r of reports) {
      expect(r.scenarios.map((s) => [s.id, s.verdict, s.reason])).toEqual(r.scenarios.map((s) => [s.id, 'passed', null]));
    }
    expect(new Set(reports.map((r) => r.outcomeDigest)).size).toBe(1);
    // The raw observation is kept beside the allowance (it may differ run to run; only the allowance is hashed).
    const observed = reports.map((r) => {
      const resume = r.scenarios.find((s) => s.id === 'cp10.session.concurrent-resume')!.trials[0]!;
      const notice = resume.assertions.find((a) => a.name === "notices naming the crashed turn's effect")!;
      expect(notice.actual).toBe(notice.expected);
      expect(resume.variableCounts).toEqual(['disclosures']);
      return { notices: notice.observed, disclosures: resume.counts.disclosures };
    });
    for (const o of observed) expect([1, 2]).toContain(o.notices);
    process.stdout.write(`concurrent-resume observations under load: ${JSON.stringify(observed)}\n`);
  }, 300_000);

  it('records the allowance, not the order: a race forced each way gives one scenario outcome', async () => {
    const forced = (order: string): Promise<Report> =>
      runConformance({
        launch: { kind: 'module', module: ORDERED, options: { order } },
        scenarioPatterns: ['cp10.session.concurrent-resume'],
        tags: [],
        seed: 5,
        shard: null,
        expectFailures: new Set(),
        keep: 'none',
        timeoutMs: 30_000,
        argv: ['run'],
      });
    const [once, twice] = await Promise.all([forced('sweep-first'), forced('reads-first')]);
    const trialOf = (r: Report) => r.scenarios[0]!.trials[0]!;
    const noticeOf = (r: Report) => trialOf(r).assertions.find((a) => a.name === "notices naming the crashed turn's effect")!;
    expect([once.verdict, twice.verdict]).toEqual(['conformant', 'conformant']);
    // The two runs really went different ways...
    expect([noticeOf(once).observed, noticeOf(twice).observed]).toEqual([1, 2]);
    expect(trialOf(twice).counts.disclosures).toBe(trialOf(once).counts.disclosures + 1);
    // ...and their outcomes are one.
    expect(scenarioOutcome(once.scenarios[0]!)).toEqual(scenarioOutcome(twice.scenarios[0]!));
  }, 120_000);
});
