import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JournalError } from '../../harness/journal-interface.js';
import { SessionReadResult, type TranscriptTurn } from '../../shared/protocol/schemas.js';
import { DB_FILE_NAME, type ReferenceJournal } from '../../reference-impl/index.js';
import { makeFixture, proceedId, RESULT, sessionPrepare, type Fixture } from './helpers.js';

let fx: Fixture;
beforeEach(async () => {
  fx = await makeFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

function committed(j: ReferenceJournal, turn: number, slot: number, callId: string, toolId = 'shell'): string {
  const id = proceedId(j.prepare(sessionPrepare('S', turn, slot, callId, toolId)));
  // A result passed for a session row is never stored.
  j.settle({ effectId: id, state: 'committed', result: RESULT });
  return id;
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof JournalError) return error.code;
    throw error;
  }
  throw new Error('expected a JournalError');
}

const turn = (n: number, status: TranscriptTurn['status'], calls: Array<[string, string]>, compacted = false): TranscriptTurn => ({
  turn: n,
  status,
  compacted,
  calls: calls.map(([callId, toolName]) => ({ callId, toolName })),
});

describe('sessionRead disclosures', () => {
  it('joins every committed row against all transcript history', () => {
    const j = fx.open();
    const done = committed(j, 0, 0, 'c-done');
    const compacted = committed(j, 1, 0, 'c-compacted');
    const absent = committed(j, 2, 0, 'c-absent');
    const errored = committed(j, 3, 0, 'c-errored');
    const dup = committed(j, 4, 0, 'c-dup');
    const renamed = committed(j, 5, 0, 'c-renamed');
    const negative = committed(j, 6, -1, 'c-cmd');
    const unresolved = proceedId(j.prepare(sessionPrepare('S', 7, -2, 'c-open')));
    const [legacy] = j.seed({
      rows: [{ scope: { kind: 'session', sessionId: 'S', turn: 8 }, slot: 0, toolId: 'shell', tier: 3, state: 'committed', argsDigest: 'x', callId: 'legacy:home', resultJson: null }],
    }).effectIds;
    const transcript = [
      turn(0, 'completed', [['c-done', 'shell']]),
      // Turn numbers do not matter: the join is by call id over every historical exchange.
      turn(40, 'completed', [['c-compacted', 'shell']], true),
      turn(3, 'errored', [['c-errored', 'shell']]),
      turn(4, 'completed', [['c-dup', 'shell']]),
      turn(9, 'completed', [['c-dup', 'shell'], ['c-renamed', 'write_file']]),
    ];
    const read = SessionReadResult.parse(j.sessionRead({ sessionId: 'S', transcript }));
    const reasons = Object.fromEntries(read.disclosures.map((d) => [d.effectId, d.reason]));
    expect(reasons).toEqual({
      [absent]: 'turn_incomplete',
      [errored]: 'turn_incomplete',
      [dup]: 'unattributable',
      [renamed]: 'unattributable',
      [unresolved]: 'unresolved',
      [legacy as string]: 'legacy',
    });
    expect(reasons[done]).toBeUndefined();
    expect(reasons[compacted]).toBeUndefined();
    expect(reasons[negative]).toBeUndefined();
    expect(read.captured.map((c) => c.effectId).sort()).toEqual(
      [done, compacted, absent, errored, dup, renamed, negative, legacy as string].sort(),
    );
    expect(read.effects.every((e) => !e.resultRetained)).toBe(true);
    // Reads never delete.
    expect(j.listEffects().effects).toHaveLength(9);
  });

  it('a failed read is a JournalError and leaves every row in place', () => {
    const j = fx.open();
    committed(j, 0, 0, 'c');
    j.fault({ fault: 'session_read_fails', enabled: true });
    expect(codeOf(() => j.sessionRead({ sessionId: 'S', transcript: [] }))).toBe('session_read_failed');
    expect(j.listEffects().effects).toHaveLength(1);
  });
});

describe('sessionSweep', () => {
  it('deletes only captured committed rows still at their exact address, in chunks', () => {
    const j = fx.open();
    for (let slot = 0; slot < 5; slot++) committed(j, 0, slot, `c${slot}`);
    const read = j.sessionRead({ sessionId: 'S', transcript: [] });
    const late = committed(j, 1, 0, 'late'); // committed after the read: not captured, survives
    const result = j.sessionSweep({ sessionId: 'S', captured: read.captured });
    expect(result).toEqual({ deleted: 5, checkpoint: 'complete' });
    expect(fx.crashpoints.filter((p) => p === 'session-sweep.between-chunks')).toHaveLength(2);
    expect(fx.crashpoints.slice(-2)).toEqual(['session-sweep.before-commit', 'session-sweep.after-commit']);
    expect(j.listEffects().effects.map((e) => e.effectId)).toEqual([late]);
  });

  it('an id reused at another address, a changed state and another session all survive', () => {
    const j = fx.open();
    const a = committed(j, 0, 0, 'a');
    const b = committed(j, 0, 1, 'b');
    const read = j.sessionRead({ sessionId: 'S', transcript: [] });
    // Row b is deleted by someone else and its id handed out again at a different address.
    const raw = new Database(join(fx.dir, DB_FILE_NAME));
    try {
      raw.prepare('DELETE FROM run_effects WHERE id = ?').run(Number(b));
      raw.prepare("UPDATE run_effects SET state = 'ambiguous' WHERE id = ?").run(Number(a));
    } finally {
      raw.close();
    }
    const reused = committed(j, 3, 7, 'b2');
    expect(reused).toBe(b);
    const foreign = { ...read.captured[0]!, sessionId: 'OTHER' };
    expect(j.sessionSweep({ sessionId: 'S', captured: [...read.captured, foreign] }).deleted).toBe(0);
    expect(j.listEffects().effects.map((e) => e.effectId).sort()).toEqual([a, b].sort());
  });

  it('a failure after the first chunk rolls every chunk back', () => {
    const j = fx.open();
    for (let slot = 0; slot < 4; slot++) committed(j, 0, slot, `c${slot}`);
    const read = j.sessionRead({ sessionId: 'S', transcript: [] });
    j.fault({ fault: 'sweep_fails_after_first_chunk', enabled: true });
    expect(codeOf(() => j.sessionSweep({ sessionId: 'S', captured: read.captured }))).toBe('sweep_failed');
    expect(j.listEffects().effects).toHaveLength(4);
    j.fault({ fault: 'sweep_fails_after_first_chunk', enabled: false });
    expect(j.sessionSweep({ sessionId: 'S', captured: read.captured }).deleted).toBe(4);
  });

  it('refuses to sweep inside an outer transaction and leaves the rows and connection usable', () => {
    const j = fx.open();
    committed(j, 0, 0, 'c0');
    const read = j.sessionRead({ sessionId: 'S', transcript: [] });
    expect(codeOf(() => j.sessionSweep({ sessionId: 'S', captured: read.captured, insideOuterTransaction: true }))).toBe(
      'outer_transaction',
    );
    expect(j.listEffects().effects).toHaveLength(1);
    expect(j.sessionSweep({ sessionId: 'S', captured: read.captured }).deleted).toBe(1);
  });

  it('an empty sweep still checkpoints', () => {
    const j = fx.open();
    expect(j.sessionSweep({ sessionId: 'S', captured: [] })).toEqual({ deleted: 0, checkpoint: 'complete' });
  });
});
