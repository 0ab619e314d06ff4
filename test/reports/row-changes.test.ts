// The before/after rows of a failed trial: what changed across the kill is shown, and a settle that never became durable is visible.
import { describe, expect, it } from 'vitest';
import { journalAnswerLine, rowChangeLines } from '../../reports/row-changes.js';
import { failedTrialRows } from '../../reports/failure-text.js';
import { scenario, trial } from './fixture.js';

const row = (effectId: string, state: 'prepared' | 'committed' | 'needs_attention', resultRetained: boolean) => ({
  effectId, scope: { kind: 'run' as const, runId: 'run-1', nodeId: 'node-a' }, slot: 0, toolId: 'http_request', tier: 3 as const, state,
  argsDigest: `v5:${'a'.repeat(64)}`, idempotencyKey: 'ik-1', resultRetained, resolution: null,
  attempt: { nodeAttempt: 1, providerAttempt: 0, callId: 'c', ownerId: 'o', generation: 0 },
});

describe('rowChangeLines', () => {
  it('shows a row still prepared after the restart beside what it was before the kill', () => {
    const lines = rowChangeLines({ effectsBefore: [row('1', 'committed', true)], effectsAfter: [row('1', 'prepared', false)] });
    expect(lines).toEqual([
      'rows before the kill → after the restart (state, args digest, idempotency key, result retained):',
      '  1 (run run-1/node-a slot 0 http_request): committed, v5:aaaaaaaaaaaa…, key ik-1, result retained → prepared, v5:aaaaaaaaaaaa…, key ik-1, result not retained',
    ]);
  });

  it('names rows that appeared or vanished, marks unchanged ones among few, and says nothing without both snapshots', () => {
    const lines = rowChangeLines({ effectsBefore: [row('1', 'committed', true)], effectsAfter: [row('1', 'committed', true), row('2', 'prepared', false)] });
    expect(lines[1]).toMatch(/^ {2}1 .*→ unchanged$/);
    expect(lines[2]).toMatch(/^ {2}2 .*: \(no row\) → prepared/);
    expect(rowChangeLines({ effectsBefore: null, effectsAfter: [] })).toEqual([]);
    const many = Array.from({ length: 5 }, (_, i) => row(String(i), 'committed', true));
    expect(rowChangeLines({ effectsBefore: many, effectsAfter: many })).toEqual(['rows before the kill and after the restart: 5 row(s), none changed']);
  });

  it('is attached to the failed trials of a scenario, named by trial', () => {
    const s = scenario('cp04.after-settle', [trial('t1', { verdict: 'failed', effectsBefore: [row('1', 'committed', true)], effectsAfter: [row('1', 'prepared', false)] }), trial('t2')]);
    expect(failedTrialRows(s)[0]).toBe('trial t1: rows before the kill → after the restart (state, args digest, idempotency key, result retained):');
    expect(failedTrialRows(s)).toHaveLength(2);
  });

  it('names the journal\'s own answers after the restart (verdicts and error codes), leaving out bookkeeping', () => {
    const ev = (kind: 'result' | 'error' | 'restart', name: string | null, detail: string | null) => ({ t: 1, kind, driver: 'primary#1', seq: 1, name, detail });
    const events = [ev('result', 'prepare', 'proceed'), ev('restart', null, null), ev('result', 'listEffects', null), ev('result', 'gate', 'refuse'), ev('error', 'prepare', 'unresolved_prior_effect')];
    expect(journalAnswerLine({ events })).toBe("the journal's answers after the restart: gate → refuse; prepare → error unresolved_prior_effect");
    expect(journalAnswerLine({})).toBeNull();
  });
});
