import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dir } from 'tmp-promise';
import { describe, expect, it } from 'vitest';
import { maskText, maskWireLine } from '../../harness/masked-output.js';
import { TrialRecord } from '../../harness/transcript/trial-record.js';
import { timelineOf } from '../../harness/transcript/timeline.js';
import { keepOnlyTranscript, TRANSCRIPT_FILE, writeTranscript } from '../../harness/transcript/write-transcript.js';
import { MAX_TRIAL_EVENTS, TrialEvent } from '../../reports/schema.js';

const CANARY = 'EJC-CANARY-0.k3j4h5g60.abcdef';

// A clock the test moves, so every time in the record is known.
function clock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1000;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

function crashTrial(): TrialRecord {
  const c = clock();
  const r = new TrialRecord(c.now);
  const first = r.start('primary#1');
  first.setPid(4242);
  c.advance(1);
  const prepare = { type: 'request', id: 1, op: 'prepare', params: { args: { amount: 42, apiToken: CANARY, note: 'x' }, secretArgKeys: ['apiToken'] } };
  r.wire('primary#1', { direction: 'send', seq: 1, line: JSON.stringify(prepare) });
  c.advance(2);
  r.wire('primary#1', { direction: 'recv', seq: 2, line: JSON.stringify({ type: 'crashpoint', point: 'prepare.before-commit', seq: 1 }) });
  const killedAt = r.now();
  c.advance(5);
  // The reap is observed (and recorded) before the kill's evidence is complete.
  r.exit('primary#1', { signal: 'SIGKILL', exitCode: null, killedByHarness: true });
  r.kill({ planned: 'point:prepare.before-commit', point: 'point:prepare.before-commit', seq: 2, signal: 'SIGKILL', driver: 'primary#1' }, killedAt);
  r.restart('primary#2', '/j');
  r.start('primary#2');
  r.wire('primary#2', { direction: 'send', seq: 1, line: JSON.stringify({ type: 'request', id: 1, op: 'gate', params: {} }) });
  r.wire('primary#2', { direction: 'recv', seq: 2, line: JSON.stringify({ type: 'response', id: 1, ok: true, result: { decision: 'pass', effects: [] } }) });
  r.target({ target: 'payments', tier: 3, entry: 'attempt', generation: 1 });
  r.target({ target: 'payments', tier: 3, entry: 'write', generation: 1 });
  r.wire('primary#2', { direction: 'send', seq: 3, line: JSON.stringify({ type: 'request', id: 2, op: 'settle', params: {} }) });
  r.wire('primary#2', { direction: 'recv', seq: 4, line: JSON.stringify({ type: 'response', id: 2, ok: false, error: { code: 'settle_no_row', message: `no row for ${CANARY}` } }) });
  r.wire('primary#2', { direction: 'recv', seq: 5, line: `garbage ${CANARY}` });
  r.disclosure('primary#2', 2);
  return r;
}

describe('the trial record and its timeline', () => {
  it('turns the wire into operations, crash points, kills, exits, restarts and writes, in time order', () => {
    const events = crashTrial().timeline();
    expect(events.map((e) => [e.kind, e.driver, e.name, e.detail])).toEqual([
      ['start', 'primary#1', null, 'pid 4242'],
      ['request', 'primary#1', 'prepare', null],
      ['crashpoint', 'primary#1', 'prepare.before-commit', null],
      // Placed where it was sent, before the exit its reap observed.
      ['kill', 'primary#1', 'point:prepare.before-commit', 'SIGKILL'],
      ['exit', 'primary#1', 'killed by the harness', 'SIGKILL'],
      ['restart', 'primary#2', null, null],
      ['start', 'primary#2', null, null],
      ['request', 'primary#2', 'gate', null],
      ['result', 'primary#2', 'gate', 'pass'],
      ['target', null, 'payments', 'tier 3 write (generation 1)'],
      ['request', 'primary#2', 'settle', null],
      // The journal's own words beside its code, a canary in them masked.
      ['error', 'primary#2', 'settle', expect.stringMatching(/^settle_no_row: no row for \[masked canary:[0-9a-f]{12}\]$/)],
      ['invalid', 'primary#2', null, 'not a JSON object'],
      ['disclosure', 'primary#2', null, '2 disclosed'],
    ]);
    for (const e of events) expect(TrialEvent.safeParse(e).success).toBe(true);
    expect(events.find((e) => e.kind === 'kill')!.t).toBe(3);
    // The timeline never carries a secret: a line's text is not kept, and a message is masked of canaries.
    expect(JSON.stringify(events)).not.toContain('EJC-CANARY');
  });

  it('stays within the report bound, keeping the kills of a long trial and saying what it elided', () => {
    const c = clock();
    const r = new TrialRecord(c.now);
    r.start('d#1');
    for (let i = 1; i <= 1500; i++) {
      c.advance(1);
      r.wire('d#1', { direction: i % 2 === 1 ? 'send' : 'recv', seq: i, line: i % 2 === 1 ? `{"type":"request","id":${i},"op":"gate"}` : `{"type":"response","id":${i - 1},"ok":true,"result":{}}` });
      if (i === 777) r.kill({ planned: 'syscall:fsync#3', point: 'syscall:fsync#3', seq: i, signal: 'SIGKILL', driver: 'd#1' });
    }
    const events = r.timeline();
    expect(events.length).toBeLessThanOrEqual(MAX_TRIAL_EVENTS);
    expect(events.filter((e) => e.kind === 'kill').map((e) => e.name)).toEqual(['syscall:fsync#3']);
    const elided = events.filter((e) => e.kind === 'elided');
    expect(elided.length).toBeGreaterThan(0);
    const dropped = elided.reduce((n, e) => n + Number(/^(\d+) events$/.exec(e.detail ?? '')![1]), 0);
    expect(events.length - elided.length + dropped).toBe(1502);
    expect(timelineOf([], 10)).toEqual([]);
  });
});

describe('the transcript file', () => {
  it('holds every line both ways with time and seq, the kill and the restart, masked of declared secrets and canaries', async () => {
    const tmp = await dir({ unsafeCleanup: true });
    try {
      const path = await writeTranscript(tmp.path, 'cp01.x#1', crashTrial());
      expect(path).toBe(join(tmp.path, TRANSCRIPT_FILE));
      const text = readFileSync(path, 'utf8');
      expect(text).not.toContain('EJC-CANARY');
      const lines = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines[0]).toMatchObject({ kind: 'transcript', trial: 'cp01.x#1' });
      const wire = lines.filter((l) => l['kind'] === 'wire');
      expect(wire.map((l) => [l['driver'], l['direction'], l['seq']])).toEqual([
        ['primary#1', 'send', 1], ['primary#1', 'recv', 2], ['primary#2', 'send', 1], ['primary#2', 'recv', 2], ['primary#2', 'send', 3], ['primary#2', 'recv', 4], ['primary#2', 'recv', 5],
      ]);
      expect(wire.every((l) => typeof l['t'] === 'number')).toBe(true);
      const prepare = JSON.parse(wire[0]!['line'] as string) as { params: { args: Record<string, unknown> } };
      expect(prepare.params.args).toEqual({ amount: 42, apiToken: '[masked]', note: 'x' });
      expect(wire[6]!['line']).toMatch(/^garbage \[masked canary:[0-9a-f]{12}\]$/);
      expect(lines.map((l) => l['kind'])).toEqual(expect.arrayContaining(['kill', 'exit', 'restart', 'target', 'disclosure']));
    } finally {
      await tmp.cleanup();
    }
  });

  it('masks only what it must: a line without declared secrets keeps its exact bytes', () => {
    const line = '{"type":"response","id":1,"ok":true,"result":{"n":1.50}}';
    expect(maskWireLine(line)).toBe(line);
    expect(maskText(`a ${CANARY} b EJC-CANARY-xyz.`)).toMatch(/^a \[masked canary:[0-9a-f]{12}\] b \[masked canary:[0-9a-f]{12}\]\.$/);
    const proto = maskWireLine('{"__proto__":{"args":{"k":1},"secretArgKeys":["k"]}}');
    expect(JSON.parse(proto)).toEqual(JSON.parse('{"__proto__":{"args":{"k":"[masked]"},"secretArgKeys":["k"]}}'));
  });

  it('leaves only the transcript in a directory kept for it', async () => {
    const tmp = await dir({ unsafeCleanup: true });
    try {
      await mkdir(join(tmp.path, 'journal'));
      await writeFile(join(tmp.path, 'journal', 'effects.db'), 'x');
      await writeFile(join(tmp.path, TRANSCRIPT_FILE), '{}\n');
      await keepOnlyTranscript(tmp.path);
      expect(readdirSync(tmp.path)).toEqual([TRANSCRIPT_FILE]);
      expect(existsSync(join(tmp.path, 'journal'))).toBe(false);
    } finally {
      await tmp.cleanup();
    }
  });
});
