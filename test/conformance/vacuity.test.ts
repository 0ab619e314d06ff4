// No vacuous pass: an implementation that hangs, exits by itself, breaks the protocol or never reaches its
// announced crash point makes the trial inconclusive (exit 2), with the cause named and no process left behind.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ejc } from '../cli/ejc-process.js';
import { killOwn, newTag, ownProcesses, TAG_VAR } from '../harness/own-processes.js';
import type { Report } from '../../reports/schema.js';

const BROKEN = fileURLToPath(new URL('../broken/broken-journal.mjs', import.meta.url));

// Each run carries its own tag: other worktrees run the same defects of the same module at the same time.
async function runMisbehaving(defect: string, scenario: string, tag: string): Promise<{ exitCode: number; report: Report }> {
  const r = await ejc(['run', '--impl', BROKEN, '--impl-option', `defect=${defect}`, '--scenario', scenario, '--timeout', '5000', '--json'], { env: { [TAG_VAR]: tag } });
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
