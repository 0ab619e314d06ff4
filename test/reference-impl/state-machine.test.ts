import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JournalError } from '../../harness/journal-interface.js';
import { PrepareVerdict } from '../../shared/protocol/schemas.js';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { argsDigest, CRASH_POINTS, DB_FILE_NAME, outputMappingDigest } from '../../reference-impl/index.js';
import { makeFixture, proceedId, RESULT, runPrepare, type Fixture } from './helpers.js';

let fx: Fixture;
beforeEach(async () => {
  fx = await makeFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

function errorCode(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(JournalError);
    return (error as JournalError).code;
  }
  throw new Error('expected a JournalError');
}

describe('prepare and settle', () => {
  it('proceeds once, settles committed and replays the recorded projections verbatim', () => {
    const j = fx.open();
    const first = j.prepare(runPrepare());
    expect(PrepareVerdict.parse(first).verdict).toBe('proceed');
    const id = proceedId(first);
    expect(j.listEffects().effects[0]).toMatchObject({ effectId: id, state: 'prepared', resultRetained: false });
    expect(j.settle({ effectId: id, state: 'committed', result: RESULT })).toEqual({ effectId: id, state: 'committed' });
    expect(fx.crashpoints).toEqual(['prepare.before-commit', 'prepare.after-commit', 'settle.before-commit', 'settle.after-commit']);
    const again = j.prepare(runPrepare({ attempt: 2, audit: { providerAttempt: 3, callId: 'other', ownerId: 'o2', generation: 2 } }));
    expect(again).toEqual({ verdict: 'replay', effectId: id, result: RESULT });
  });

  it('generates a deterministic idempotency key and stores it on the row', () => {
    const a = fx.open().prepare(runPrepare());
    if (a.verdict !== 'proceed') throw new Error('expected proceed');
    expect(a.idempotencyKey).toMatch(/^ik-[0-9a-f]{32}$/);
    expect(fx.journals[0]?.listEffects().effects[0]?.idempotencyKey).toBe(a.idempotencyKey);
  });

  it('leaves no row when the prepare transaction dies before COMMIT', () => {
    let dieOnce = true;
    const j = fx.open({
      onCrashpoint: (p) => {
        if (p === 'prepare.before-commit' && dieOnce) {
          dieOnce = false;
          throw new Error('simulated death inside the transaction');
        }
      },
    });
    expect(errorCode(() => j.prepare(runPrepare()))).toBe('internal');
    expect(j.listEffects().effects).toEqual([]);
    expect(j.prepare(runPrepare()).verdict).toBe('proceed');
  });

  it('refuses every verdict the contract names', () => {
    const j = fx.open();
    const id = proceedId(j.prepare(runPrepare()));
    expect(j.prepare(runPrepare())).toMatchObject({ verdict: 'refuse', code: 'duplicate_identity', effectId: id });
    j.settle({ effectId: id, state: 'committed', result: RESULT });
    expect(j.prepare(runPrepare({ args: { to: 'other@example.com', apiSecret: 's3cr3t' } }))).toMatchObject({ code: 'args_mismatch' });
    expect(j.prepare(runPrepare({ outputMappingConfig: { path: '$.other' } }))).toMatchObject({ code: 'output_mapping_changed' });
    // A secret-only change still replays.
    expect(j.prepare(runPrepare({ args: { to: 'ops@example.com', apiSecret: 'rotated' } })).verdict).toBe('replay');

    const unretained = proceedId(j.prepare(runPrepare({ slot: 1 })));
    j.settle({ effectId: unretained, state: 'committed', result: null });
    expect(j.prepare(runPrepare({ slot: 1 }))).toMatchObject({ code: 'result_not_retained', effectId: unretained });
  });

  it('answers result_corrupt and legacy_digest from seeded rows, never a raw exception', () => {
    const j = fx.open();
    const scope = { kind: 'run' as const, runId: 'R', nodeId: 'N' };
    const request = runPrepare();
    const current = argsDigest(request.args, request.secretArgKeys);
    const [bad, wrongShape, legacy] = j.seed({
      rows: [
        { scope, slot: 0, toolId: 'send_email', tier: 3, state: 'committed', argsDigest: current, callId: 'c', resultJson: '{not json' },
        { scope, slot: 1, toolId: 'send_email', tier: 3, state: 'committed', argsDigest: current, callId: 'c', resultJson: '{"x":1}' },
        { scope, slot: 2, toolId: 'send_email', tier: 3, state: 'committed', argsDigest: 'v4:abc', callId: 'c', resultJson: null },
      ],
    }).effectIds;
    // A seeded row records no output-mapping digest: the config cannot be proven, so it is refused.
    expect(j.prepare(runPrepare({ slot: 0 }))).toMatchObject({ verdict: 'refuse', code: 'output_mapping_changed', effectId: bad });
    // As an older writer that did record the config: patch the digest through a second connection.
    const raw = new Database(join(fx.dir, DB_FILE_NAME));
    try {
      raw.prepare('UPDATE run_effects SET output_mapping_digest = ? WHERE id IN (?, ?)').run(
        outputMappingDigest(request.outputMappingConfig),
        Number(bad),
        Number(wrongShape),
      );
    } finally {
      raw.close();
    }
    expect(j.prepare(runPrepare({ slot: 0 }))).toMatchObject({ code: 'result_corrupt', effectId: bad });
    expect(j.prepare(runPrepare({ slot: 1 }))).toMatchObject({ code: 'result_corrupt', effectId: wrongShape });
    expect(j.prepare(runPrepare({ slot: 2 }))).toMatchObject({ code: 'legacy_digest', effectId: legacy });
  });

  it('settle errors: no row, already settled, injected write failure leaves the row prepared', () => {
    const j = fx.open();
    expect(errorCode(() => j.settle({ effectId: '999', state: 'committed', result: null }))).toBe('settle_no_row');
    expect(errorCode(() => j.settle({ effectId: 'abc', state: 'committed', result: null }))).toBe('settle_no_row');
    const id = proceedId(j.prepare(runPrepare()));
    j.fault({ fault: 'settle_write_fails', enabled: true });
    expect(errorCode(() => j.settle({ effectId: id, state: 'committed', result: RESULT }))).toBe('settle_write_failed');
    expect(j.listEffects().effects[0]).toMatchObject({ state: 'prepared', resultRetained: false });
    j.fault({ fault: 'settle_write_fails', enabled: false });
    expect(j.settle({ effectId: id, state: 'ambiguous', reason: 'timeout' }).state).toBe('ambiguous');
    expect(errorCode(() => j.settle({ effectId: id, state: 'committed', result: RESULT }))).toBe('settle_already_settled');
  });

  it('resolve: discarded lets the node run again under a fresh key; accepted replays nothing', () => {
    const j = fx.open();
    const first = j.prepare(runPrepare());
    const id = proceedId(first);
    const row = j.resolve({ effectId: id, decision: 'discarded', actor: 'alice' });
    expect(row.resolution).toMatchObject({ decision: 'discarded', actor: 'alice' });
    expect(Number.isNaN(Date.parse(row.resolution?.at ?? ''))).toBe(false);
    expect(errorCode(() => j.resolve({ effectId: id, decision: 'accepted', actor: 'bob' }))).toBe('resolve_invalid');
    const second = j.prepare(runPrepare());
    expect(second.verdict).toBe('proceed');
    if (second.verdict !== 'proceed' || first.verdict !== 'proceed') throw new Error('unreachable');
    expect(second.idempotencyKey).not.toBe(first.idempotencyKey);
    j.settle({ effectId: second.effectId, state: 'committed', result: RESULT });
    expect(errorCode(() => j.resolve({ effectId: second.effectId, decision: 'accepted', actor: 'bob' }))).toBe('resolve_invalid');

    const other = proceedId(j.prepare(runPrepare({ slot: 1 })));
    j.resolve({ effectId: other, decision: 'accepted', actor: 'bob' });
    expect(j.prepare(runPrepare({ slot: 1 }))).toMatchObject({ verdict: 'refuse', code: 'result_not_retained' });
  });

  it('announces every crash point and every fault', () => {
    const j = fx.open();
    expect(j.capabilities.crashPoints).toEqual([...CRASH_POINTS]);
    expect(j.capabilities.faults).toHaveLength(5);
    expect(j.capabilities).toMatchObject({ tierMode: 'reconciling', sessions: true, seeding: true, outerTransactionProbe: true });
  });
});

describe('reconcile', () => {
  it('tier 1 retried_with_key commits; tier 2 receipt_absent returns to prepared with the stored key', () => {
    const j = fx.open();
    const t1 = j.prepare(runPrepare({ tier: 1 }));
    const t2 = j.prepare(runPrepare({ tier: 2, slot: 1 }));
    if (t1.verdict !== 'proceed' || t2.verdict !== 'proceed') throw new Error('expected proceed');
    expect(j.reconcile({ effectId: t1.effectId, evidence: { kind: 'retried_with_key', result: RESULT } })).toEqual({
      effectId: t1.effectId,
      state: 'committed',
      execute: null,
    });
    expect(j.reconcile({ effectId: t2.effectId, evidence: { kind: 'receipt_absent' } })).toEqual({
      effectId: t2.effectId,
      state: 'prepared',
      execute: { idempotencyKey: t2.idempotencyKey },
    });
    j.settle({ effectId: t2.effectId, state: 'committed', result: RESULT });
    expect(j.prepare(runPrepare({ tier: 2, slot: 1 })).verdict).toBe('replay');
    expect(j.prepare(runPrepare({ tier: 1 })).verdict).toBe('replay');
  });

  it('rejects evidence for the wrong tier, a retained row, a tier-3 row, and in conservative mode', () => {
    const j = fx.open();
    const t1 = proceedId(j.prepare(runPrepare({ tier: 1 })));
    const t3 = proceedId(j.prepare(runPrepare({ tier: 3, slot: 1 })));
    expect(errorCode(() => j.reconcile({ effectId: t1, evidence: { kind: 'receipt_absent' } }))).toBe('reconcile_invalid');
    expect(errorCode(() => j.reconcile({ effectId: t3, evidence: { kind: 'receipt_absent' } }))).toBe('reconcile_invalid');
    j.settle({ effectId: t1, state: 'committed', result: RESULT });
    expect(errorCode(() => j.reconcile({ effectId: t1, evidence: { kind: 'retried_with_key', result: RESULT } }))).toBe(
      'reconcile_invalid',
    );
    j.close();
    const c = fx.open({ tierMode: 'conservative' });
    const t2 = proceedId(c.prepare(runPrepare({ tier: 2, slot: 2 })));
    expect(errorCode(() => c.reconcile({ effectId: t2, evidence: { kind: 'receipt_absent' } }))).toBe('reconcile_invalid');
  });
});
