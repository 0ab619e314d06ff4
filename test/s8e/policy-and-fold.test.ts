// The controller's policy and the fold over the S8e fixture, without a journal: authority, breaker, replays, narration.
import { describe, expect, it } from 'vitest';
import { s8eFixture } from '../../harness/s8e/fixture.js';
import { decideAction } from '../../harness/s8e/policy.js';
import { foldReceipts } from '../../harness/s8e/fold.js';
import { bindIntent } from '../../harness/s8e/intent.js';
import type { ActionOutcome } from '../../harness/s8e/types.js';

// Plays the batch with every executed intent confirmed (the unknown aside), as a conformant journal would.
function playPolicy(): ActionOutcome[] {
  const fixture = s8eFixture();
  const outcomes: ActionOutcome[] = [];
  fixture.actions.forEach((action, i) => {
    const d = decideAction(fixture, action, outcomes);
    const base = { index: i + 1, actionId: action.id, reason: null, receipt: null, journalState: null, intentKey: null, resource: null, label: null, denial: null };
    if (d.kind === 'stop') outcomes.push({ ...base, state: d.state, reason: d.reason, denial: d.denial });
    else {
      const state = action.cancel === 'after_dispatch' ? 'unknown_pending_readback' : d.replayOf ? 'idempotent_replay_confirmed' : 'confirmed';
      outcomes.push({ ...base, state, intentKey: d.intent.intentKey, resource: d.intent.resource, label: d.intent.label, receipt: state === 'unknown_pending_readback' ? null : `rcpt-${action.id}` });
    }
  });
  return outcomes;
}

describe('S8e controller policy', () => {
  it('yields the S8e table of states for the 22 selected actions', () => {
    const counts: Record<string, number> = {};
    for (const o of playPolicy()) counts[o.state] = (counts[o.state] ?? 0) + 1;
    expect(counts).toEqual({
      confirmed: 6,
      idempotent_replay_confirmed: 3,
      denied: 5,
      conflict: 1,
      failed_before_write: 1,
      cancelled_before_dispatch: 1,
      unknown_pending_readback: 1,
      approval_not_run: 1,
      dry_run: 1,
      breaker_not_run: 2,
    });
  });

  it('opens the breaker after the third authorization denial; stage denials do not count', () => {
    const outcomes = playPolicy();
    expect(outcomes.filter((o) => o.denial === 'capability').map((o) => o.actionId)).toEqual(['a06', 'a17', 'a20']);
    expect(outcomes.filter((o) => o.denial === 'stage').map((o) => o.actionId)).toEqual(['a03', 'a16']);
    expect(outcomes.filter((o) => o.state === 'breaker_not_run').map((o) => o.actionId)).toEqual(['a21', 'a22']);
  });

  it('a claimed capability grants nothing: authority comes only from the controller grants', () => {
    const fixture = s8eFixture();
    const claimed = { ...fixture.actions[0]!, capability: 'labels:admin', narration: 'I am an admin now' };
    const d = decideAction(fixture, claimed, []);
    expect(d).toMatchObject({ kind: 'stop', state: 'denied', denial: 'capability' });
  });

  it('binds equal intents to one key and one journal identity, and different labels to different ones', () => {
    const fixture = s8eFixture();
    const [a01, , , , a05] = fixture.actions;
    const one = bindIntent(fixture, a01!, 'g');
    expect(bindIntent(fixture, a05!, 'g')).toEqual(one);
    expect(bindIntent(fixture, { ...a01!, label: 'other' }, 'g').intentKey).not.toBe(one.intentKey);
    expect(bindIntent(fixture, a01!, 'another-grant').scope).not.toEqual(one.scope);
    expect(JSON.stringify(one)).not.toContain('NARRATION');
  });
});

describe('S8e fold', () => {
  it('folds only confirmed receipts; the unknown stays visible and outside', () => {
    const fold = foldReceipts(playPolicy());
    expect(fold.confirmed).toHaveLength(9);
    expect(fold.confirmed.filter((r) => r.kind === 'replay').map((r) => r.actionId)).toEqual(['a05', 'a11', 'a19']);
    expect(fold.unknown).toEqual([{ actionId: 'a15', resource: 'issue-10', state: 'unknown_pending_readback' }]);
    expect(fold.labels['issue-10']).toBeUndefined();
    expect(JSON.stringify(fold)).not.toContain('NARRATION');
  });

  it('a confirmed state without a read-back receipt does not enter the fold', () => {
    const outcomes = playPolicy().map((o) => (o.actionId === 'a14' ? { ...o, receipt: null } : o));
    const fold = foldReceipts(outcomes);
    expect(fold.confirmed.map((r) => r.actionId)).not.toContain('a14');
    expect(fold.labels['issue-9']).toBeUndefined();
  });
});
