// The exploration's terminal summary: counts that say what ran, the shrinking's trials apart, never a bare row of zeros.
import { describe, expect, it } from 'vitest';
import { exploreSummary } from '../../bin/explore-summary.js';
import { zeroCounts } from '../../reports/schema.js';
import { buildReport, scenario, trial } from '../reports/fixture.js';

// A journal that breaks a clause at its first step: the failing trial and its shrunk form end before any kill.
function earlyFailure() {
  const failed = trial('explore.trial-00000', { kills: [], plannedKills: 0, counts: { ...zeroCounts(), trials: 1 }, assertions: [{ name: 'digest.same-call: prepare (step 2)', expected: ['replay'], actual: 'refuse (args_mismatch)', passed: false }] });
  return buildReport([scenario('explore.trial-00000', [failed]), scenario('explore.trial-00000.shrunk', [{ ...failed }])]);
}

describe('exploreSummary', () => {
  it('never reads all zeros: trials that reached no kill say so, and the shrinking that hit its cap is counted apart', () => {
    const shrink = { trials: 40, max: 40, counts: { ...zeroCounts(), trials: 40 } };
    const text = exploreSummary(earlyFailure(), null, shrink);
    const lines = text.split('\n');
    expect(lines).toContain("counts: none of the report's 2 trial(s) reached a kill, a restart, a dispatch, a target write or a byte scan");
    expect(lines).toContain('shrinking: 40 more trial(s), its cap (--max-shrinks 40) reached: a higher cap may shrink further; none of them reached a kill, a restart, a dispatch, a target write or a byte scan');
    expect(text).not.toMatch(/0 kills · 0 restarts/);
  });

  it('lists the counts when trials did something, and the shrinking below its cap without the cap note', () => {
    const report = buildReport([scenario('explore.trial-00000', [trial('explore.trial-00000')])]);
    const text = exploreSummary(report, '/tmp/out/report.json', { trials: 3, max: 40, counts: { ...zeroCounts(), trials: 3, kills: 5, restarts: 5, dispatchAttempts: 2 } });
    expect(text).toContain('counts: 1 kills · 1 restarts · 1 dispatch attempts · 1 physical writes · 0 duplicate writes · 0 bytes scanned\n');
    expect(text).toContain('shrinking: 3 more trial(s); 5 kills · 5 restarts · 2 dispatch attempts · 0 physical writes · 0 duplicate writes · 0 bytes scanned\n');
    expect(exploreSummary(report, null, { trials: 0, max: 40, counts: zeroCounts() })).not.toContain('shrinking:');
  });
});
