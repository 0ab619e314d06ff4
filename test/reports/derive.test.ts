import { describe, expect, it } from 'vitest';
import { gateOutcome, inconclusiveCause, reportVerdict, scenarioVerdict, sumCounts, summarize, trialHeadline, trialVerdict } from '../../reports/derive.js';
import { zeroCounts } from '../../reports/schema.js';
import { trial } from './fixture.js';

const fail = { name: 'writes', expected: 1, actual: 2, passed: false };
const killed = { planned: 'p', point: 'p', seq: 1, signal: 'SIGKILL', driver: 'd' };

describe('derive', () => {
  it('derives trial verdicts, inconclusive before failed', () => {
    const pass = { ...fail, passed: true };
    const base = { plannedKills: 1, kills: [killed], violations: [], inconclusiveReason: null, assertions: [pass] };
    expect(trialVerdict(base)).toBe('passed');
    // A trial that checked nothing proves nothing.
    expect(trialVerdict({ ...base, assertions: [] })).toBe('inconclusive');
    expect(trialVerdict({ ...base, assertions: [fail] })).toBe('failed');
    expect(trialVerdict({ ...base, kills: [], assertions: [fail] })).toBe('inconclusive');
    expect(trialVerdict({ ...base, kills: [{ ...killed, signal: null }] })).toBe('inconclusive');
    expect(trialVerdict({ ...base, kills: [{ ...killed, signal: 'SIGTERM' }] })).toBe('inconclusive');
    expect(trialVerdict({ ...base, violations: [{ op: 'prepare', field: 'verdict', message: 'bad' }] })).toBe('inconclusive');
    expect(trialVerdict({ ...base, inconclusiveReason: 'timeout' })).toBe('inconclusive');
    expect(trialVerdict({ ...base, plannedKills: 0, kills: [] })).toBe('passed');
    // The most specific cause wins: a named reason explains a missing kill.
    expect(inconclusiveCause({ ...base, kills: [], inconclusiveReason: 'operation_timeout: gate' })).toBe('operation_timeout: gate');
  });

  it('a conclusive failure (the journal broke a clause itself) decides the trial even when the planned kill is missing', () => {
    const conclusive = { name: 'prepare answers a result (effect-journal §7 step 2)', expected: 'a result', actual: 'error unsupported: nope', passed: false, conclusive: true as const };
    const missed = { plannedKills: 1, kills: [], violations: [], inconclusiveReason: 'planned crash point:prepare.before-commit was never reached', assertions: [conclusive] };
    expect(trialVerdict(missed)).toBe('failed');
    expect(trialHeadline({ ...missed, verdict: 'failed' })).toBe('prepare answers a result (effect-journal §7 step 2): got error unsupported: nope');
    // The same failure without the mark is a consequence of the missing kill, so it stays inconclusive.
    const plain = { ...missed, assertions: [{ ...fail }] };
    expect(trialVerdict(plain)).toBe('inconclusive');
    expect(trialHeadline({ ...plain, verdict: 'inconclusive' })).toBe('planned crash point:prepare.before-commit was never reached');
    expect(trialHeadline({ plannedKills: 0, kills: [], violations: [], inconclusiveReason: null, assertions: [fail], verdict: 'failed' })).toBe('assertion failed: writes');
  });

  it('derives scenario verdicts with expected failures', () => {
    const passed = { verdict: 'passed' as const };
    const failed = { verdict: 'failed' as const };
    const inconclusive = { verdict: 'inconclusive' as const };
    expect(scenarioVerdict([], { expectedFailure: false })).toBe('not_applicable');
    expect(scenarioVerdict([passed, failed, inconclusive], { expectedFailure: false })).toBe('failed');
    expect(scenarioVerdict([passed, failed], { expectedFailure: true })).toBe('expected_failure');
    expect(scenarioVerdict([passed, inconclusive], { expectedFailure: true })).toBe('inconclusive');
    expect(scenarioVerdict([passed, passed], { expectedFailure: false })).toBe('passed');
    expect(scenarioVerdict([passed], { expectedFailure: true })).toBe('stale_expected_failure');
  });

  it('summarizes and derives the report verdict', () => {
    const v = (verdict: 'passed' | 'failed' | 'inconclusive' | 'not_applicable' | 'expected_failure' | 'stale_expected_failure') => ({ verdict });
    const summary = summarize([v('passed'), v('not_applicable'), v('expected_failure')]);
    expect(summary).toEqual({ total: 3, passed: 1, failed: 0, inconclusive: 0, notApplicable: 1, expectedFailures: 1, staleExpectedFailures: 0 });
    // Listing a failure as expected does not make the journal conform: the gate knows, the verdict does not change.
    expect(reportVerdict(summary)).toBe('nonconformant');
    expect(gateOutcome(summary)).toBe('known_failures');
    expect(reportVerdict(summarize([v('expected_failure')]))).toBe('nonconformant');
    expect(gateOutcome(summarize([v('expected_failure')]))).toBe('known_failures');
    expect(gateOutcome(summarize([v('expected_failure'), v('inconclusive')]))).toBe('inconclusive');
    expect(gateOutcome(summarize([v('expected_failure'), v('failed')]))).toBe('nonconformant');
    expect(gateOutcome(summarize([v('passed'), v('stale_expected_failure')]))).toBe('nonconformant');
    expect(gateOutcome(summarize([v('passed'), v('not_applicable')]))).toBe('conformant');
    expect(gateOutcome(summarize([v('not_applicable')]))).toBe('inconclusive');
    expect(reportVerdict(summarize([v('passed'), v('not_applicable')]))).toBe('conformant');
    expect(reportVerdict(summarize([v('passed'), v('stale_expected_failure')]))).toBe('nonconformant');
    expect(reportVerdict(summarize([v('passed'), v('failed'), v('inconclusive')]))).toBe('nonconformant');
    expect(reportVerdict(summarize([v('passed'), v('inconclusive')]))).toBe('inconclusive');
    expect(reportVerdict(summarize([v('not_applicable')]))).toBe('inconclusive');
    expect(reportVerdict(summarize([]))).toBe('inconclusive');
  });

  it('sums counts element-wise', () => {
    const a = trial('a');
    const b = trial('b', { counts: { ...zeroCounts(), trials: 1, duplicateWrites: 2 } });
    expect(sumCounts([a, b])).toEqual({ ...a.counts, trials: 2, duplicateWrites: 2 });
    expect(sumCounts([])).toEqual(zeroCounts());
  });
});
