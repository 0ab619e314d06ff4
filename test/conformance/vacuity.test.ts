// No vacuous pass: an implementation that hangs, exits by itself, breaks the protocol or never reaches its
// announced crash point makes the trial inconclusive (exit 2), with the cause named and no process left behind.
// A bug is not an inconclusive: when the journal's own behaviour makes the planned crash unreachable, the
// trial fails (exit 1) with the clause it breaks as the headline.
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

describe('a bug that makes the planned crash unreachable is a failure, end to end through ejc run', () => {
  it.each([
    // Before: "planned 1 kill(s) but recorded 0".
    ['prepare-answers-unsupported', 'cp01.prepare-before-commit', /^prepare answers a result, as effect-journal §12\.1.*: got prepare answered unsupported: tier 3 effects are not supported yet$/],
    // Before: "a crash at point:prepare.before-commit happened outside the phase that planned it".
    ['point-in-wrong-operation', 'cp01.prepare-before-commit', /^crash point prepare\.before-commit is announced inside prepare, where the contract places it: got announced during open$/],
    // Before: "strace saw no durable write syscall during prepare: nothing to sweep".
    ['prepare-not-durable', 'sweep.prepare.every-write', /^prepare makes a durable write \(effect-journal §12\.1, §6, §7 step 2\): got none: strace traced the driver/],
  ])('%s → failed, exit 1, the broken clause is the headline', async (defect, scenario, headline) => {
    const { exitCode, report } = await runMisbehaving(defect, scenario);
    expect(exitCode).toBe(1);
    expect(report.verdict).toBe('nonconformant');
    const s = report.scenarios[0]!;
    expect(s.verdict, s.reason ?? '').toBe('failed');
    expect(s.reason ?? '').toMatch(headline);
    expect(s.trials[0]!.assertions.find((a) => !a.passed)?.conclusive).toBe(true);
    expect(await survivors(defect)).toEqual([]);
  });
});
