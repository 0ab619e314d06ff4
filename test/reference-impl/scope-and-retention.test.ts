import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeFixture, proceedId, RESULT, runPrepare, sessionPrepare, type Fixture } from './helpers.js';

let fx: Fixture;
beforeEach(async () => {
  fx = await makeFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

const TRICKY_IDS = ['r1', 'r10', 'r1:', 'r%', 'r_', 'r1%', 'r:1', '_', '%', 'R1'];

describe('scope matching is exact', () => {
  it('run ids that are prefixes, wildcards or contain separators never cross', () => {
    const j = fx.open();
    const ids = new Map<string, string>();
    for (const runId of TRICKY_IDS) ids.set(runId, proceedId(j.prepare(runPrepare({ runId, nodeId: 'n:1' }))));
    for (const runId of TRICKY_IDS) {
      const gate = j.gate({ scope: { kind: 'run', runId, nodeId: 'n:1' } });
      expect(gate.effects.map((e) => e.effectId)).toEqual([ids.get(runId)]);
    }
    // Node ids split differently from run ids must not meet either ('r1' + ':n' vs 'r1:' + 'n').
    const a = proceedId(j.prepare(runPrepare({ runId: 'a:', nodeId: 'b' })));
    const b = proceedId(j.prepare(runPrepare({ runId: 'a', nodeId: ':b' })));
    expect(a).not.toBe(b);
    const committed = proceedId(j.prepare(runPrepare({ runId: 'r1', nodeId: 'n', slot: 5 })));
    j.settle({ effectId: committed, state: 'committed', result: RESULT });
    expect(j.runTerminal({ runId: 'r%' })).toEqual({ deleted: 0 });
    expect(j.runTerminal({ runId: 'r' })).toEqual({ deleted: 0 });
    expect(j.runTerminal({ runId: 'r1' })).toEqual({ deleted: 1 });
  });

  it('session ids never cross, and a session never matches a run with the same text', () => {
    const j = fx.open();
    for (const sessionId of TRICKY_IDS) proceedId(j.prepare(sessionPrepare(sessionId, 0, 0, `c-${sessionId}`)));
    proceedId(j.prepare(runPrepare({ runId: 'r1', nodeId: 'n' })));
    for (const sessionId of TRICKY_IDS) {
      const read = j.sessionRead({ sessionId, transcript: [] });
      expect(read.effects).toHaveLength(1);
      expect(read.effects[0]?.scope).toEqual({ kind: 'session', sessionId, turn: 0 });
    }
  });
});

describe('runTerminal', () => {
  it('deletes every committed row of the run, never unresolved rows, and checkpoints', () => {
    const j = fx.open();
    const c1 = proceedId(j.prepare(runPrepare({ nodeId: 'A' })));
    const c2 = proceedId(j.prepare(runPrepare({ nodeId: 'B' })));
    const open = proceedId(j.prepare(runPrepare({ nodeId: 'B', slot: 1 })));
    const amb = proceedId(j.prepare(runPrepare({ nodeId: 'C' })));
    const other = proceedId(j.prepare(runPrepare({ runId: 'R2' })));
    j.settle({ effectId: c1, state: 'committed', result: RESULT });
    j.settle({ effectId: c2, state: 'committed', result: null });
    j.settle({ effectId: amb, state: 'ambiguous', reason: 'timeout' });
    j.settle({ effectId: other, state: 'committed', result: RESULT });
    expect(j.runTerminal({ runId: 'R' })).toEqual({ deleted: 2 });
    expect(fx.crashpoints).toContain('run-sweep.before-commit');
    expect(j.listEffects().effects.map((e) => e.effectId).sort()).toEqual([open, amb, other].sort());
  });
});

describe('two journals on the same file', () => {
  it('preparing the same identity: exactly one proceeds, the other is refused as duplicate', () => {
    const first = fx.open();
    const second = fx.open();
    const verdicts = [first.prepare(runPrepare()), second.prepare(runPrepare({ audit: { providerAttempt: 0, callId: 'x', ownerId: 'o2', generation: 2 } }))];
    expect(verdicts.filter((v) => v.verdict === 'proceed')).toHaveLength(1);
    expect(verdicts.filter((v) => v.verdict === 'refuse' && v.code === 'duplicate_identity')).toHaveLength(1);
    expect(first.listEffects().effects).toHaveLength(1);
  });

  it('a session prepare of an existing identity is always refused, committed or not', () => {
    const j = fx.open();
    const id = proceedId(j.prepare(sessionPrepare('S', 1, 0, 'c1')));
    expect(j.prepare(sessionPrepare('S', 1, 0, 'c2'))).toMatchObject({ code: 'duplicate_identity', effectId: id });
    j.settle({ effectId: id, state: 'committed', result: RESULT });
    expect(j.prepare(sessionPrepare('S', 1, 0, 'c2'))).toMatchObject({ code: 'session_never_replays', effectId: id });
    expect(j.listEffects().effects[0]?.resultRetained).toBe(false);
  });
});
