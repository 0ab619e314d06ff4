// The executable model on its own (pure, no processes): §11 relations, the §4 table, §8 disclosure, kill effects, and whole histories.
import { describe, expect, it } from 'vitest';
import { sameCall } from '../../harness/model/projection.js';
import { codeUsual, expectGate, expectPrepare, gateAction, verdictAllowed } from '../../harness/model/gate-table.js';
import { allowedDisclosures } from '../../harness/model/disclosure.js';
import { killEffect } from '../../harness/model/crash.js';
import { checkHistory } from '../../harness/model/check-history.js';
import type { HistoryEvent, OpAnswer } from '../../harness/model/history.js';

const same = (a: Record<string, unknown>, b: Record<string, unknown>, keys: string[] = []) => sameCall({ args: a, secretArgKeys: keys }, { args: b, secretArgKeys: keys });

describe('§11 projections seen from outside', () => {
  it('equal projections are the same call whatever the key order, the declared secrets or the credential shapes', () => {
    expect(same({ a: 1, b: { c: 2, d: [1, { e: 3 }] } }, { b: { d: [1, { e: 3 }], c: 2 }, a: 1 })).toBe('same');
    expect(same({ pin: '1234', n: 1 }, { pin: '9999', n: 1 }, ['pin'])).toBe('same');
    expect(same({ h: 'Bearer abc' }, { h: 'bearer xyz' })).toBe('same');
    expect(same({ u: 'https://u:p@ss@h.test/x' }, { u: 'https://v:q@h.test/x' })).toBe('same');
    expect(same({ u: 'https://a.invalid/v?page=2&access_token=T1' }, { u: 'https://a.invalid/v?page=2&access_token=T2' })).toBe('same');
    expect(same({ c: 'retries=3 password="a\\"b" timeout=30' }, { c: 'retries=3 password="zz" timeout=30' })).toBe('same');
    expect(same({ argv: ['x', '--token', 'A', '-p', 'S1'] }, { argv: ['x', '--token', 'B', '-p', 'S2'] })).toBe('same');
    expect(same({ list: [{ password: 'a', k: 1 }] }, { list: [{ password: 'b', k: 1 }] })).toBe('same');
  });

  it('a changed surviving public value is a different call', () => {
    expect(same({ a: 1 }, { a: 2 })).toBe('different');
    expect(same({ h: 'Bearer abc' }, { h: 'Basic abc' })).toBe('different');
    expect(same({ u: 'https://u:p@h.test/x' }, { u: 'https://u:p@other.test/x' })).toBe('different');
    expect(same({ u: 'https://a.invalid/v?page=2&access_token=T' }, { u: 'https://a.invalid/v?page=3&access_token=T' })).toBe('different');
    expect(same({ c: 'password="a" timeout=30' }, { c: 'password="a" timeout=31' })).toBe('different');
    expect(same({ ports: ['-p', '8080'] }, { ports: ['-p', '8081'] })).toBe('different');
    expect(same({ s: `${'L'.repeat(900)}a` }, { s: `${'L'.repeat(900)}b` })).toBe('different');
    expect(same({ s: '\u00e9' }, { s: 'e\u0301' })).toBe('different');
    expect(same(JSON.parse('{"__proto__":{"x":1}}'), JSON.parse('{"__proto__":{"x":2}}'))).toBe('different');
  });

  it('a shape the contract does not name is left open', () => {
    expect(same({ authHeader: 'a' }, { authHeader: 'b' })).toBe('either');
  });

  it('a -p port mapping may be port-shaped or not (§11 does not define the term); a bare port is, a password is not', () => {
    expect(same({ argv: ['run', '-p', '127.0.0.1:5432:5432'] }, { argv: ['run', '-p', '127.0.0.1:6543:5432'] })).toBe('either');
    expect(same({ argv: ['serve', '-p=5432:5432'] }, { argv: ['serve', '-p=6543:5432'] })).toBe('either');
    expect(same({ argv: ['-p', '8080'] }, { argv: ['-p', '8081'] })).toBe('different');
    expect(same({ argv: ['-p', 'hunter2'] }, { argv: ['-p', 'swordfish'] })).toBe('same');
  });
});

describe('a percent-encoded credential query name (§11 leaves decoding names to the detector)', () => {
  it('is either the same call or not when only its value differs: a journal that does not decode names is not failed', () => {
    expect(same({ u: 'https://a.invalid/v?page=2&access%5Ftoken=T1' }, { u: 'https://a.invalid/v?page=2&access%5Ftoken=T2' })).toBe('either');
    expect(same({ u: 'https://a.invalid/v?page=2&access%5Ftoken=T1' }, { u: 'https://a.invalid/v?page=3&access%5Ftoken=T1' })).toBe('different');
  });
});

describe('refusal codes are informational (protocol.md: "which code names the reason is for the report and the operator")', () => {
  const row = { scope: 'run', state: 'committed', resolution: null, legacyDigest: false, sameArgs: 'same', sameMapping: true, retained: true } as const;

  it('a legacy row refused under another code than legacy_digest passes, with the code noted as unusual', () => {
    const allowed = expectPrepare({ ...row, legacyDigest: true });
    expect(verdictAllowed(allowed, { verdict: 'refuse', code: 'args_mismatch' })).toBe(true);
    expect(codeUsual(allowed, 'args_mismatch')).toBe(false);
    expect(verdictAllowed(allowed, { verdict: 'replay' })).toBe(false);
  });

  it('an unresolved session holder refused as unresolved_prior_effect passes', () => {
    const allowed = expectPrepare({ ...row, scope: 'session', state: 'unresolved' });
    expect(verdictAllowed(allowed, { verdict: 'refuse', code: 'unresolved_prior_effect' })).toBe(true);
    expect(verdictAllowed(allowed, { verdict: 'proceed' })).toBe(false);
  });

  it('a session row an operator discarded may be prepared again or refused; an accepted one is refused', () => {
    const discarded = expectPrepare({ ...row, scope: 'session', state: 'unresolved', resolution: 'discarded' });
    expect(verdictAllowed(discarded, { verdict: 'proceed' })).toBe(true);
    expect(verdictAllowed(discarded, { verdict: 'refuse', code: 'duplicate_identity' })).toBe(true);
    expect(verdictAllowed(discarded, { verdict: 'replay' })).toBe(false);
    const accepted = expectPrepare({ ...row, scope: 'session', state: 'unresolved', resolution: 'accepted' });
    expect(verdictAllowed(accepted, { verdict: 'proceed' })).toBe(false);
    expect(verdictAllowed(accepted, { verdict: 'refuse', code: 'session_never_replays' })).toBe(true);
  });

  it('an operator-accepted row refused under another code than args_mismatch passes', () => {
    const allowed = expectPrepare({ ...row, state: 'unresolved', resolution: 'accepted', retained: false, sameArgs: 'different' });
    expect(verdictAllowed(allowed, { verdict: 'refuse', code: 'duplicate_identity' })).toBe(true);
  });
});

describe('§4 the gate table and prepare verdicts, in both tier modes', () => {
  it('decides per row and over the node', () => {
    expect(gateAction({ tier: 3, state: 'committed', retained: true }, 'conservative')).toBe('replay');
    expect(gateAction({ tier: 1, state: 'committed', retained: false }, 'reconciling')).toBe('retry_with_key');
    expect(gateAction({ tier: 2, state: 'unresolved', retained: false }, 'reconciling')).toBe('reconcile_receipt');
    expect(gateAction({ tier: 1, state: 'unresolved', retained: false }, 'conservative')).toBe('needs_attention');
    expect(gateAction({ tier: 3, state: 'committed', retained: false }, 'reconciling')).toBe('needs_attention');
    expect(expectGate([{ tier: 3, state: 'committed', retained: true }, { tier: 2, state: 'unresolved', retained: false }], 'conservative')).toEqual({ decision: 'refuse', actions: ['replay', 'needs_attention'], refusal: { code: 'effect_needs_attention', tiers: [2] } });
    expect(expectGate([{ tier: 1, state: 'unresolved', retained: false }], 'reconciling').decision).toBe('reconcile');
    expect(expectGate([], 'reconciling', true).refusal?.code).toBe('gate_read_failed');
  });

  it('replays only an equal call under an equal mapping with a retained result', () => {
    const row = { scope: 'run' as const, state: 'committed' as const, resolution: null, legacyDigest: false, sameArgs: 'same' as const, sameMapping: true, retained: true };
    expect(expectPrepare(null)).toEqual([{ verdict: 'proceed' }]);
    expect(expectPrepare(row)).toEqual([{ verdict: 'replay' }]);
    expect(expectPrepare({ ...row, sameArgs: 'different' })).toEqual([{ verdict: 'refuse', codes: ['args_mismatch'] }]);
    expect(expectPrepare({ ...row, sameMapping: false })[0]).toMatchObject({ verdict: 'refuse' });
    expect(expectPrepare({ ...row, sameArgs: 'either' }).map((v) => v.verdict).sort()).toEqual(['refuse', 'replay']);
    expect(expectPrepare({ ...row, scope: 'session' })[0]).toMatchObject({ verdict: 'refuse' });
    expect(expectPrepare({ ...row, legacyDigest: true })).toEqual([{ verdict: 'refuse', codes: ['legacy_digest'] }]);
  });
});

describe('§8 disclosure joins the whole history by call id', () => {
  const turn = (status: 'completed' | 'errored', calls: Array<[string, string]>) => ({ turn: 0, status, compacted: true, calls: calls.map(([callId, toolName]) => ({ callId, toolName })) });
  const row = { state: 'committed' as const, slot: 0, toolId: 't', callId: 'c1' };
  it('is silent only for one sighting under its tool in a completed exchange', () => {
    expect(allowedDisclosures(row, [turn('completed', [['c1', 't']])])).toEqual([]);
    expect(allowedDisclosures(row, [turn('errored', [['c1', 't']])])).toContain('turn_incomplete');
    expect(allowedDisclosures(row, [])).toContain('turn_incomplete');
    expect(allowedDisclosures(row, [turn('completed', [['c1', 't']]), turn('completed', [['c1', 't']])])).toContain('unattributable');
    expect(allowedDisclosures(row, [turn('completed', [['c1', 'other']])])).toContain('unattributable');
    expect(allowedDisclosures({ ...row, callId: 'legacy:session' }, [turn('completed', [['legacy:session', 't']])])).toContain('legacy');
    expect(allowedDisclosures({ ...row, slot: -1 }, [])).toEqual([]);
    expect(allowedDisclosures({ ...row, state: 'unresolved', slot: -1 }, [])).toEqual(['unresolved']);
  });
});

describe('what a kill inside an operation may leave', () => {
  it('reads the point name', () => {
    expect(killEffect('point:prepare.before-commit')).toBe('none');
    expect(killEffect('point:session-sweep.between-chunks')).toBe('none');
    expect(killEffect('point:settle.after-commit')).toBe('durable');
    expect(killEffect('syscall:pwrite64#3')).toBe('either');
  });
});

// A tiny history builder: ops get request/answer ticks in the order written unless `overlap` says otherwise.
function history(build: (h: Builder) => void): HistoryEvent[] {
  const h = new Builder();
  build(h);
  return h.events;
}

class Builder {
  events: HistoryEvent[] = [];
  tick = 0;
  driver(name: string, restart = false): void {
    this.events.push({ kind: 'driver', driver: name, journal: 'j', restart, clock: null });
  }
  op(driver: string, op: string, params: unknown, answer: OpAnswer, ticks?: [number, number]): void {
    const [sent, answered] = ticks ?? [++this.tick, ++this.tick];
    this.events.push({ kind: 'op', driver, op: op as never, params, answer, sent, answered });
  }
  kill(driver: string, at: string): void {
    this.events.push({ kind: 'kill', driver, at, signal: 'SIGKILL' });
  }
}

const prep = (runId: string, args: Record<string, unknown> = { a: 1 }) => ({
  correlation: { kind: 'run', runId, nodeId: 'n', attempt: 1 }, slot: 0, toolId: 't', tier: 3, args, secretArgKeys: [], outputMappingConfig: { field: 'tail', bound: 8 },
  audit: { providerAttempt: 1, callId: 'c', ownerId: 'o', generation: 0 },
});
// A committed settle acknowledged, the driver killed after it, a fresh driver listing the row as `state`.
function killedAfterSettle(b: Builder, state: 'committed' | 'prepared'): void {
  b.driver('p#1');
  b.op('p#1', 'prepare', prep('r'), ok({ verdict: 'proceed', effectId: '1', idempotencyKey: 'k' }));
  b.op('p#1', 'settle', { effectId: '1', state: 'committed', result }, ok({ effectId: '1', state: 'committed' }));
  b.kill('p#1', 'boundary:after-settle');
  b.driver('p#2', true);
  b.op('p#2', 'listEffects', {}, ok({ effects: [{ effectId: '1', scope: { kind: 'run', runId: 'r', nodeId: 'n' }, slot: 0, toolId: 't', tier: 3, state, argsDigest: 'v5:x', idempotencyKey: 'k', resultRetained: state === 'committed', resolution: null, attempt: { nodeAttempt: 1, providerAttempt: 1, callId: 'c', ownerId: 'o', generation: 0 } }] }));
}

const result = { modelValue: 'v', truncated: false, summary: 's', outputMappingResult: null };
const ok = (r: unknown): OpAnswer => ({ kind: 'result', result: r });

describe('a history, folded through the model', () => {
  it('accepts a prepare, a settle, a kill after the ack, the restart and the replay', () => {
    const h = history((b) => {
      killedAfterSettle(b, 'committed');
      b.op('p#2', 'gate', { scope: { kind: 'run', runId: 'r', nodeId: 'n' } }, ok({ decision: 'pass', effects: [{ effectId: '1', slot: 0, toolId: 't', tier: 3, state: 'committed', action: 'replay', idempotencyKey: 'k' }], refusal: null }));
      b.op('p#2', 'prepare', prep('r', { a: 1 }), ok({ verdict: 'replay', effectId: '1', result }));
    });
    const r = checkHistory(h, { tierMode: 'reconciling' });
    expect(r.failure).toBeNull();
    expect(r.checks['replay.recorded']).toBe(1);
    expect(r.checks['durability']).toBe(1);
  });

  it('names lost durability when an acknowledged settle is missing after the restart', () => {
    const h = history((b) => {
      killedAfterSettle(b, 'prepared');
    });
    expect(checkHistory(h, { tierMode: 'reconciling' }).failure?.clause).toBe('durability');
  });

  it('allows either outcome of a prepare killed at a syscall, and none of one killed before its commit', () => {
    const listed = (n: number): OpAnswer => ok({ effects: n === 0 ? [] : [{ effectId: '1', scope: { kind: 'run', runId: 'r', nodeId: 'n' }, slot: 0, toolId: 't', tier: 3, state: 'prepared', argsDigest: 'v5:x', idempotencyKey: 'k', resultRetained: false, resolution: null, attempt: { nodeAttempt: 1, providerAttempt: 1, callId: 'c', ownerId: 'o', generation: 0 } }] });
    for (const [at, rows, fails] of [['syscall:pwrite64#2', 1, false], ['syscall:pwrite64#2', 0, false], ['point:prepare.before-commit', 1, true]] as const) {
      const h = history((b) => {
        b.driver('p#1');
        b.op('p#1', 'prepare', prep('r'), { kind: 'killed', at });
        b.kill('p#1', at);
        b.driver('p#2', true);
        b.op('p#2', 'listEffects', {}, listed(rows));
      });
      expect(checkHistory(h, { tierMode: 'conservative' }).failure !== null, `${at} ${rows}`).toBe(fails);
    }
  });

  it('asks a key of a prepare killed at a syscall only at tier 1 (a journal may store none below it, §2)', () => {
    for (const [tier, fails] of [[3, false], [2, false], [1, true]] as const) {
      const h = history((b) => {
        b.driver('p#1');
        b.op('p#1', 'prepare', { ...prep('r'), tier }, { kind: 'killed', at: 'syscall:pwrite64#2' });
        b.kill('p#1', 'syscall:pwrite64#2');
        b.driver('p#2', true);
        b.op('p#2', 'listEffects', {}, ok({ effects: [{ effectId: '1', scope: { kind: 'run', runId: 'r', nodeId: 'n' }, slot: 0, toolId: 't', tier, state: 'prepared', argsDigest: 'v5:x', idempotencyKey: null, resultRetained: false, resolution: null, attempt: { nodeAttempt: 1, providerAttempt: 1, callId: 'c', ownerId: 'o', generation: 0 } }] }));
      });
      // At tier 1 no possible journal explains the keyless row (which world's clause is named is the model's choice).
      expect(checkHistory(h, { tierMode: 'conservative' }).failure !== null, `tier ${tier}`).toBe(fails);
    }
  });

  it('finds no order for two concurrent prepares of one identity that both proceed', () => {
    const h = history((b) => {
      b.driver('a#1');
      b.driver('b#2');
      b.op('a#1', 'prepare', prep('r'), ok({ verdict: 'proceed', effectId: '1', idempotencyKey: 'k1' }), [1, 4]);
      b.op('b#2', 'prepare', prep('r'), ok({ verdict: 'proceed', effectId: '2', idempotencyKey: 'k2' }), [2, 3]);
    });
    expect(checkHistory(h, { tierMode: 'reconciling' }).failure?.clause).toBe('identity.unique');
    const fine = history((b) => {
      b.op('a#1', 'prepare', prep('r'), ok({ verdict: 'proceed', effectId: '1', idempotencyKey: 'k1' }), [1, 4]);
      b.op('b#2', 'prepare', prep('r'), ok({ verdict: 'refuse', code: 'duplicate_identity', effectId: null, message: 'x' }), [2, 3]);
    });
    expect(checkHistory(fine, { tierMode: 'reconciling' }).failure).toBeNull();
  });

  // The history lists operations as they are answered. A listing that spans another driver's prepare may show its
  // row even when that prepare is listed after a third operation, one sent after the first listing's answer (the long
  // allowed walk's row-files seed 3, trial 44: a session read spanning the other driver's sweep, listed after a sweep
  // of its own, failed so).
  it('groups an operation sent inside a segment but listed after one sent after it', () => {
    const row = (id: string, runId: string) => ({ effectId: id, scope: { kind: 'run', runId, nodeId: 'n' }, slot: 0, toolId: 't', tier: 3, state: 'prepared', argsDigest: 'v5:x', idempotencyKey: 'k', resultRetained: false, resolution: null, attempt: { nodeAttempt: 1, providerAttempt: 1, callId: 'c', ownerId: 'o', generation: 0 } });
    const spans = (listed: number) =>
      history((b) => {
        b.driver('p#1');
        b.driver('q#2');
        b.op('p#1', 'prepare', prep('r1'), ok({ verdict: 'proceed', effectId: '1', idempotencyKey: 'k' }), [1, 2]);
        b.op('p#1', 'listEffects', {}, ok({ effects: [row('1', 'r1')] }), [3, 5]);
        b.op('q#2', 'listEffects', {}, ok({ effects: [row('1', 'r1'), row('2', 'r2')].slice(0, listed) }), [4, 9]);
        b.op('q#2', 'listEffects', {}, ok({ effects: [row('1', 'r1'), row('2', 'r2')] }), [10, 11]);
        b.op('p#1', 'prepare', prep('r2'), ok({ verdict: 'proceed', effectId: '2', idempotencyKey: 'k' }), [6, 12]);
      });
    expect(checkHistory(spans(2), { tierMode: 'conservative' }).failure).toBeNull();
    expect(checkHistory(spans(1), { tierMode: 'conservative' }).failure).toBeNull();
    // A row no operation made is still no row: the grouping widens what is concurrent, not what is allowed.
    const ghost = spans(2);
    ghost.splice(ghost.length - 1, 1);
    expect(checkHistory(ghost, { tierMode: 'conservative' }).failure?.clause).toBeDefined();
  });

  it('refuses a replay of a changed public value and a gate that looks at another scope', () => {
    const h = history((b) => {
      b.op('p#1', 'prepare', prep('r'), ok({ verdict: 'proceed', effectId: '1', idempotencyKey: 'k' }));
      b.op('p#1', 'settle', { effectId: '1', state: 'committed', result }, ok({ effectId: '1', state: 'committed' }));
      b.op('p#1', 'prepare', prep('r', { a: 2 }), ok({ verdict: 'replay', effectId: '1', result }));
    });
    expect(checkHistory(h, { tierMode: 'reconciling' }).failure?.clause).toBe('digest.public-change');
    const g = history((b) => {
      b.op('p#1', 'prepare', prep('r1'), ok({ verdict: 'proceed', effectId: '1', idempotencyKey: 'k' }));
      b.op('p#1', 'gate', { scope: { kind: 'run', runId: 'r10', nodeId: 'n' } }, ok({ decision: 'refuse', effects: [{ effectId: '1', slot: 0, toolId: 't', tier: 3, state: 'prepared', action: 'needs_attention', idempotencyKey: 'k' }], refusal: { code: 'effect_needs_attention', tier: 3, effectIds: ['1'], message: 'x' } }));
    });
    expect(checkHistory(g, { tierMode: 'reconciling' }).failure?.clause).toBe('gate.scope');
  });

  // §8 "accepted (the effect landed; treat it as committed)": a journal may list an accepted row as committed, and its
  // terminal may sweep it with the committed rows while a discarded row stays (§9: a resolved row may go or stay).
  it('lets an accepted row read as committed and a terminal sweep resolved rows by their decision', () => {
    const row = (id: string, slot: number, state: string, decision: string | null) => ({ effectId: id, scope: { kind: 'run', runId: 'r', nodeId: 'n' }, slot, toolId: 't', tier: 3, state, argsDigest: 'v5:x', idempotencyKey: 'k', resultRetained: false, resolution: decision === null ? null : { decision, actor: 'op', at: '2026-01-01T00:00:00Z' }, attempt: { nodeAttempt: 1, providerAttempt: 1, callId: 'c', ownerId: 'o', generation: 0 } });
    const run = (listed: ReturnType<typeof row>[], deleted: number, left: ReturnType<typeof row>[]) =>
      checkHistory(
        history((b) => {
          b.op('p#1', 'prepare', prep('r'), ok({ verdict: 'proceed', effectId: '1', idempotencyKey: 'k' }));
          b.op('p#1', 'prepare', { ...prep('r'), slot: 1 }, ok({ verdict: 'proceed', effectId: '2', idempotencyKey: 'k' }));
          b.op('p#1', 'resolve', { effectId: '1', decision: 'accepted', actor: 'op' }, ok(listed[0]));
          b.op('p#1', 'resolve', { effectId: '2', decision: 'discarded', actor: 'op' }, ok(listed[1]));
          b.op('p#1', 'listEffects', {}, ok({ effects: listed }));
          b.op('p#1', 'runTerminal', { runId: 'r' }, ok({ deleted }));
          b.op('p#1', 'listEffects', {}, ok({ effects: left }));
        }),
        { tierMode: 'conservative' },
      ).failure;
    const [acc, accCommitted, dis] = [row('1', 0, 'needs_attention', 'accepted'), row('1', 0, 'committed', 'accepted'), row('2', 1, 'needs_attention', 'discarded')];
    expect(run([acc, dis], 0, [acc, dis])).toBeNull();
    expect(run([accCommitted, dis], 1, [dis])).toBeNull();
    expect(run([accCommitted, dis], 1, [accCommitted])).toBeNull();
    expect(run([acc, dis], 2, [])).toBeNull();
    // A discarded row is not "treated as committed", and a count no choice explains is a failure.
    expect(run([acc, row('2', 1, 'committed', 'discarded')], 0, [acc, row('2', 1, 'committed', 'discarded')])?.clause).toBe('state.machine');
    expect(run([acc, dis], 3, [])?.clause).toBe('retention.terminal');
    // The row the count says went is gone: one deleted and both still listed is lost deletion, not a choice.
    expect(run([accCommitted, dis], 1, [accCommitted, dis])).not.toBeNull();
  });

  // §8 requires a session row's disclosure "until resolved", §9 still counts its state unresolved: after an operator's
  // resolution silence and a reason are both allowed, and an accepted row ("treat it as committed") may be captured.
  it('leaves a resolved session row\'s disclosure open and lets an accepted one be captured, never a discarded one', () => {
    const sprep = { ...prep('r'), correlation: { kind: 'session', sessionId: 's', turn: 1 } };
    const row = (decision: string) => ({ effectId: '1', scope: { kind: 'session', sessionId: 's', turn: 1 }, slot: 0, toolId: 't', tier: 3, state: 'prepared', argsDigest: 'v5:x', idempotencyKey: null, resultRetained: false, resolution: { decision, actor: 'op', at: '2026-01-01T00:00:00Z' }, attempt: { nodeAttempt: null, providerAttempt: 1, callId: 'c', ownerId: 'o', generation: 0 } });
    const read = (decision: 'accepted' | 'discarded', disclosures: unknown[], captured: boolean) =>
      checkHistory(
        history((b) => {
          b.op('p#1', 'prepare', sprep, ok({ verdict: 'proceed', effectId: '1', idempotencyKey: null }));
          b.op('p#1', 'resolve', { effectId: '1', decision, actor: 'op' }, ok(row(decision)));
          b.op('p#1', 'sessionRead', { sessionId: 's', transcript: [] }, ok({ effects: [row(decision)], disclosures, captured: captured ? [{ effectId: '1', sessionId: 's', turn: 1, slot: 0, toolId: 't', state: 'committed' }] : [] }));
        }),
        { tierMode: 'conservative' },
      ).failure;
    expect(read('accepted', [], false)).toBeNull();
    expect(read('discarded', [{ effectId: '1', reason: 'unresolved' }], false)).toBeNull();
    expect(read('accepted', [{ effectId: '1', reason: 'turn_incomplete' }], true)).toBeNull();
    expect(read('discarded', [], true)?.clause).toBe('retention.captured');
  });

  // protocol.md: settle_already_settled answers a settle of a row that is no longer prepared, and a resolved row is not:
  // a late settle after an operator's resolution may be refused so (red team H, seed 13 of explore.mixed), or taken.
  it('lets a late settle of an operator-resolved session row be refused as settled, or taken', () => {
    const sprep = { ...prep('r'), correlation: { kind: 'session', sessionId: 's', turn: 1 } };
    const row = { effectId: '1', scope: { kind: 'session', sessionId: 's', turn: 1 }, slot: 0, toolId: 't', tier: 3, state: 'prepared', argsDigest: 'v5:x', idempotencyKey: null, resultRetained: false, resolution: { decision: 'accepted', actor: 'op', at: '2026-01-01T00:00:00Z' }, attempt: { nodeAttempt: null, providerAttempt: 1, callId: 'c', ownerId: 'o', generation: 0 } };
    const late = (answer: OpAnswer) =>
      checkHistory(
        history((b) => {
          b.op('p#1', 'prepare', sprep, ok({ verdict: 'proceed', effectId: '1', idempotencyKey: null }));
          b.op('p#2', 'resolve', { effectId: '1', decision: 'accepted', actor: 'op' }, ok(row));
          b.op('p#1', 'settle', { effectId: '1', state: 'committed', result: null }, answer);
        }),
        { tierMode: 'conservative' },
      ).failure;
    expect(late({ kind: 'error', code: 'settle_already_settled', message: 'resolved' })).toBeNull();
    expect(late(ok({ effectId: '1', state: 'committed' }))).toBeNull();
    expect(late({ kind: 'error', code: 'settle_no_row', message: 'no row' })?.clause).toBe('state.machine');
  });

  // A discarded row kept beside its successor at one address (protocol.md allows it), disclosures named by address and
  // state only: the disclosure is the successor's, whose disclosure §8 requires (red team H, seeds 5 and 26).
  it('credits a disclosure by address to the unresolved row, not to a discarded one kept beside it', () => {
    const sprep = (callId: string) => ({ ...prep('r'), correlation: { kind: 'session', sessionId: 's', turn: 1 }, audit: { providerAttempt: 1, callId, ownerId: 'o', generation: 0 } });
    const rowOf = (id: string, callId: string, resolution: unknown) => ({ effectId: id, scope: { kind: 'session', sessionId: 's', turn: 1 }, slot: 0, toolId: 't', tier: 3, state: 'prepared', argsDigest: 'v5:x', idempotencyKey: null, resultRetained: false, resolution, attempt: { nodeAttempt: null, providerAttempt: 1, callId, ownerId: 'o', generation: 0 } });
    const discarded = rowOf('1', 'c1', { decision: 'discarded', actor: 'op', at: '2026-01-01T00:00:00Z' });
    const successor = rowOf('2', 'c2', null);
    const byAddress = { scope: { kind: 'session', sessionId: 's', turn: 1 }, slot: 0, toolId: 't', state: 'prepared', reason: 'unresolved' };
    const failure = checkHistory(
      history((b) => {
        b.op('p#1', 'prepare', sprep('c1'), ok({ verdict: 'proceed', effectId: '1', idempotencyKey: null }));
        b.op('p#1', 'resolve', { effectId: '1', decision: 'discarded', actor: 'op' }, ok(discarded));
        b.op('p#1', 'prepare', sprep('c2'), ok({ verdict: 'proceed', effectId: '2', idempotencyKey: null }));
        b.op('p#1', 'sessionRead', { sessionId: 's', transcript: [] }, ok({ effects: [discarded, successor], disclosures: [byAddress], captured: [] }));
      }),
      { tierMode: 'conservative' },
    ).failure;
    expect(failure).toBeNull();
  });

  it('judges byte scans by the role of each planted canary', () => {
    const h = (role: 'arg' | 'run-result'): HistoryEvent[] => [
      { kind: 'canary', id: 0, role, value: 'EJC-CANARY-tZ' },
      { kind: 'scan', hits: [{ id: 0, file: 'effects.db' }], files: 1, bytes: 10, liveDrivers: 1 },
    ];
    expect(checkHistory(h('arg'), { tierMode: 'reconciling' }).failure?.clause).toBe('secrets.args');
    expect(checkHistory(h('run-result'), { tierMode: 'reconciling' }).failure).toBeNull();
  });

  it('judges a failing listEffects under gate_read_fails as the gate read when the gate is the harness\'s (gate: "harness")', () => {
    // As the harness-side gate records it: the gate's interval holds its own listEffects read, which the fault fails.
    const h = (listed: OpAnswer): HistoryEvent[] => history((b) => {
      b.driver('p#1');
      b.op('p#1', 'prepare', prep('r'), ok({ verdict: 'proceed', effectId: '1', idempotencyKey: 'k' }));
      b.op('p#1', 'fault', { fault: 'gate_read_fails', enabled: true }, ok(null));
      b.op('p#1', 'listEffects', {}, listed, [11, 12]);
      b.op('p#1', 'gate', { scope: { kind: 'run', runId: 'r', nodeId: 'n' }, attempt: 1 }, ok({ decision: 'refuse', effects: [], refusal: { code: 'gate_read_failed', tier: null, effectIds: [], message: 'read failed' } }), [10, 13]);
    });
    const failed: OpAnswer = { kind: 'error', code: 'internal', message: 'injected fault: the effect rows could not be read' };
    const harness = checkHistory(h(failed), { tierMode: 'conservative', gate: 'harness' });
    expect(harness.failure).toBeNull();
    expect(harness.checks['gate.read-failure']).toBeGreaterThan(0);
    // The journal's own gate reads its rows itself: its listing has no reason to fail under the fault.
    expect(checkHistory(h(failed), { tierMode: 'conservative', gate: 'journal' }).failure?.clause).toBe('listing');
    expect(checkHistory(h(failed), { tierMode: 'conservative' }).failure?.clause).toBe('listing');
  });
});

describe('the KXM model', () => {
  it('decides recovery from the last durable evidence', async () => {
    const { expectedDecision, expectedClass, resolutionOutcome, cancelOutcome } = await import('../../harness/kxm/model.js');
    const ended = { process: 'ended' as const, receipt: { kind: 'not_queried' as const } };
    expect(expectedDecision('intent', 'unknown', ended, false, false).decision).toBe('start_planned_attempt');
    expect(expectedDecision('intent', 'unknown', ended, true, false).decision).toBe('lease_expired');
    expect(expectedDecision('intent', 'unknown', ended, false, true).decision).toBe('lease_fenced');
    expect(expectedDecision('dispatched', 'unknown', { ...ended, process: 'alive_same' }, false, false).decision).toBe('reattach');
    expect(expectedDecision('dispatched', 'read-only', ended, false, false).decision).toBe('retry_bounded');
    expect(expectedDecision('dispatched', 'workspace-mutation', { ...ended, postcondition: 'verified' }, false, false).decision).toBe('record_postcondition');
    expect(expectedDecision('dispatched', 'workspace-mutation', { ...ended, postcondition: 'not_comparable' }, false, false).decision).toBe('blocked_uncertain');
    expect(expectedDecision('dispatched', 'receipt-queryable', { process: 'ended', receipt: { kind: 'found' } }, false, false).decision).toBe('record_receipt');
    expect(expectedDecision('dispatched', 'external-idempotent', { process: 'ended', receipt: { kind: 'absent' } }, false, false).decision).toBe('retry_same_key');
    expect(expectedDecision('dispatched', 'external-idempotent', { process: 'replacement_exists', receipt: { kind: 'absent' } }, false, false).decision).toBe('blocked_uncertain');
    expect(expectedDecision('dispatched', 'receipt-queryable', { process: 'ended', receipt: { kind: 'ambiguous' } }, false, false).decision).toBe('blocked_uncertain');
    expect(expectedDecision('dispatched', 'external-non-idempotent', ended, false, false).decision).toBe('blocked_uncertain');
    const registry = { revision: 'r', tools: { put: { class: 'external-idempotent' as const, receiptQuery: 'q' } } };
    expect(expectedClass(registry, 'put', 'read-only')).toEqual({ effectClass: 'external-idempotent', declarationAccepted: false });
    expect(expectedClass(registry, 'put', 'unknown')).toEqual({ effectClass: 'unknown', declarationAccepted: true });
    expect(expectedClass(registry, 'shell', undefined).effectClass).toBe('unknown');
    expect(resolutionOutcome('mark_completed', 'r', {}, 'a')).toBeNull();
    expect(resolutionOutcome('confirm_absent_retry', 'r', { negativeQueryAuthoritative: true, newAttemptId: 'a' }, 'a')).toBeNull();
    expect(resolutionOutcome('confirm_absent_retry', 'r', { negativeQueryAuthoritative: true, newAttemptId: 'b' }, 'a')).toBe('intent');
    expect(cancelOutcome(['completed', 'cancelled'])).toBe('cancelled');
    expect(cancelOutcome(['blocked_uncertain'])).toBe('blocked_uncertain');
  });
});
