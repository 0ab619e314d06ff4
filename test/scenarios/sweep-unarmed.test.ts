// The every-write sweep against the reference journal: its kills are strace's, at syscalls, so it arms no crash point.
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultLaunch, runConformance } from '../../runner/run-conformance.js';
import type { Report } from '../../reports/schema.js';

const ID = 'sweep.settle.every-write';
let report: Report;

beforeAll(async () => {
  report = await runConformance({ launch: defaultLaunch(), scenarioPatterns: [ID], tags: [], seed: 1, shard: null, expectFailures: new Set(), keep: 'none', timeoutMs: 10_000, argv: ['run', '--scenario', ID] });
}, 60_000);

describe(`${ID} against the reference journal`, () => {
  it('kills at each durable syscall of the settle with no crash point armed, so none is held and resumed', () => {
    expect(report.verdict).toBe('conformant');
    const trial = report.scenarios[0]!.trials[0]!;
    expect(trial.kills.length).toBeGreaterThan(0);
    expect(trial.kills.every((k) => k.point.startsWith('syscall:') && k.signal === 'SIGKILL')).toBe(true);
    // The reference journal announces prepare and settle points; armed, each would appear in the timeline.
    const events = trial.events ?? [];
    expect(events.filter((e) => e.kind === 'kill')).toHaveLength(trial.kills.length);
    expect(events.filter((e) => e.kind === 'crashpoint')).toEqual([]);
  });
});
