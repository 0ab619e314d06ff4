// Parallel scenarios change nothing a report says: the same outcome digest, order and sections at --jobs 1 and 4.
import { describe, expect, it } from 'vitest';
import { defaultLaunch, runConformance, type RunOptions } from '../../runner/run-conformance.js';
import { listScenarios } from '../../scenarios/catalog.js';

// Quick crash scenarios of several families, one with a report section, listed out of catalog order.
const SCENARIOS = ['s8e.batch', 'cp04.after-settle', 'cp07.concurrent-prepare.race', 'cp10.session.disclose-once', 'kxm.recovery.receipt-found', 'secrets.args-never-on-disk'];

function options(jobs: number): RunOptions {
  return {
    launch: defaultLaunch(),
    scenarioPatterns: SCENARIOS,
    tags: [],
    seed: 3,
    shard: null,
    expectFailures: new Set(),
    keep: 'none',
    timeoutMs: 20_000,
    jobs,
    argv: ['run', '--seed', '3'],
  };
}

describe('--jobs', () => {
  it('gives the same outcome digest, scenario order and sections at --jobs 1 and --jobs 4', async () => {
    const events: string[] = [];
    const one = await runConformance(options(1));
    const four = await runConformance({ ...options(4), onProgress: (e) => events.push(e.kind) });
    expect(one.verdict).toBe('conformant');
    expect(one.counts.kills).toBeGreaterThan(0);
    expect(one.partial).toBeUndefined();
    expect(four.outcomeDigest).toBe(one.outcomeDigest);
    const catalogOrder = listScenarios().map((s) => s.id).filter((id) => SCENARIOS.includes(id));
    expect(one.scenarios.map((s) => s.id)).toEqual(catalogOrder);
    expect(four.scenarios.map((s) => s.id)).toEqual(catalogOrder);
    expect(JSON.stringify(four.sections)).toBe(JSON.stringify(one.sections));
    expect(Object.keys(one.sections)).not.toEqual([]);
    // Four lanes really overlapped: some scenario started before an earlier one ended.
    expect(events.slice(0, 4)).toEqual(['scenario-start', 'scenario-start', 'scenario-start', 'scenario-start']);
  }, 120_000);
});
