// No vacuous pass: an implementation that hangs, exits by itself, breaks the protocol or never reaches its
// announced crash point makes the trial inconclusive (exit 2), with the cause named and no process left behind.
import { execa } from 'execa';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ejc } from '../cli/ejc-process.js';
import type { Report } from '../../reports/schema.js';

const BROKEN = fileURLToPath(new URL('../broken/broken-journal.mjs', import.meta.url));

async function runMisbehaving(defect: string, scenario: string): Promise<{ exitCode: number; report: Report }> {
  const r = await ejc(['run', '--impl', BROKEN, '--impl-option', `defect=${defect}`, '--scenario', scenario, '--timeout', '5000', '--json']);
  return { exitCode: r.exitCode, report: JSON.parse(r.stdout) as Report };
}

// Drivers of this defect still alive; other test files run other defects of the same module concurrently.
async function survivors(defect: string): Promise<string[]> {
  const ps = await execa('ps', ['-eo', 'pid,stat,args'], { reject: false });
  // Zombies are already dead (only their table entry waits for the reaper); anything else is a leak.
  return ps.stdout.split('\n').filter((l) => l.includes('broken-journal.mjs') && l.includes(`defect=${defect}`) && !/\sZ/.test(l.slice(0, 16)));
}

describe('vacuity guard, end to end through ejc run', () => {
  it.each([
    ['hangs-during-gate', 'cp03.after-dispatch.tier3', /operation_timeout.*gate/],
    ['exits-during-settle', 'cp04.after-settle', /driver_exited|exited/],
    ['garbage-during-prepare', 'cp02.after-prepare.tier3', /protocol violation/],
    ['never-announces-crash-points', 'cp01.prepare-before-commit', /planned 1 kill\(s\) but recorded 0|never reached/],
  ])('%s → inconclusive, exit 2, cause named', async (defect, scenario, cause) => {
    const { exitCode, report } = await runMisbehaving(defect, scenario);
    expect(exitCode).toBe(2);
    expect(report.verdict).toBe('inconclusive');
    const s = report.scenarios[0]!;
    expect(s.verdict).toBe('inconclusive');
    expect(s.reason ?? '').toMatch(cause);
    expect(s.trials[0]!.verdict).not.toBe('passed');
    expect(await survivors(defect)).toEqual([]);
  });
});
