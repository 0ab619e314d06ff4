// No vacuous pass: an implementation that hangs, exits by itself, breaks the protocol or never reaches its
// announced crash point makes the trial inconclusive (exit 2), with the cause named and no process left behind.
// A bug is not an inconclusive: when the journal's own behaviour makes the planned crash unreachable, the
// trial fails (exit 1) with the clause it breaks as the headline.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ejc } from '../cli/ejc-process.js';
import { killOwn, newTag, ownProcesses, TAG_VAR } from '../harness/own-processes.js';
import type { Report } from '../../reports/schema.js';

const BROKEN = fileURLToPath(new URL('../broken/broken-journal.mjs', import.meta.url));

// Each run carries its own tag: other worktrees run the same defects of the same module at the same time.
// A short --timeout only where the timeout is what the test waits for (a hang); elsewhere a generous one, so a slow
// operation on a busy machine is never mistaken for the cause under test.
async function runMisbehaving(defect: string, scenario: string, tag: string): Promise<{ exitCode: number; report: Report }> {
  const timeout = defect.startsWith('hangs-') ? '5000' : '60000';
  const r = await ejc(['run', '--impl', BROKEN, '--impl-option', `defect=${defect}`, '--scenario', scenario, '--timeout', timeout, '--json'], { env: { [TAG_VAR]: tag } });
  return { exitCode: r.exitCode, report: JSON.parse(r.stdout) as Report };
}

describe('vacuity guard, end to end through ejc run', () => {
  it.each([
    ['hangs-during-gate', 'cp03.after-dispatch.tier3', /operation_timeout.*gate/],
    ['exits-during-settle', 'cp04.after-settle', /driver_exited|exited/],
    ['garbage-during-prepare', 'cp02.after-prepare.tier3', /protocol violation/],
    ['never-announces-crash-points', 'cp01.prepare-before-commit', /planned 1 kill\(s\) but recorded 0|never reached/],
  ])('%s → inconclusive, exit 2, cause named', async (defect, scenario, cause) => {
    const tag = newTag(`vacuity-${defect}`);
    try {
      const { exitCode, report } = await runMisbehaving(defect, scenario, tag);
      expect(exitCode).toBe(2);
      expect(report.verdict).toBe('inconclusive');
      const s = report.scenarios[0]!;
      expect(s.verdict).toBe('inconclusive');
      expect(s.reason ?? '').toMatch(cause);
      expect(s.trials[0]!.verdict).not.toBe('passed');
      // Checked once ejc has exited, and only among this run's own processes (zombies are already dead).
      expect(ownProcesses(tag)).toEqual([]);
    } finally {
      await killOwn(tag);
    }
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
    const tag = newTag(`vacuity-${defect}`);
    try {
      const { exitCode, report } = await runMisbehaving(defect, scenario, tag);
      expect(exitCode).toBe(1);
      expect(report.verdict).toBe('nonconformant');
      const s = report.scenarios[0]!;
      expect(s.verdict, s.reason ?? '').toBe('failed');
      expect(s.reason ?? '').toMatch(headline);
      expect(s.trials[0]!.assertions.find((a) => !a.passed)?.conclusive).toBe(true);
      expect(ownProcesses(tag)).toEqual([]);
    } finally {
      await killOwn(tag);
    }
  });
});
