// The row-files journal (a correct store the allowed walk explores) sweeps in one commit: two processes sweeping the
// same captured rows at once answer all and none, never a split, and a reader beside them sees all the rows or none.
// The long walk found the old design splitting them (seed 2, trial 52: deleted 1 and 1 of 2 rows); §9 "All chunks
// commit together; actual deletions are counted".
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: an untyped .mjs journal, loaded as its drivers load it.
import { createJournal } from '../broken/realistic/row-files-journal.mjs';

const CHILD = fileURLToPath(new URL('./row-files-sweep-child.mjs', import.meta.url));
const ROWS = 40;
const ROUNDS = 6;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface Child {
  ready: Promise<void>;
  answer: Promise<Record<string, unknown>>;
}

// A child process, ready once it has opened the journal and read the captured rows; its answer is its last line.
function child(role: 'sweep' | 'read', dir: string, sessionId: string): Child {
  const p = spawn(process.execPath, [CHILD, role, dir, sessionId], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  p.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    if (out.startsWith('ready\n')) markReady();
  });
  const answer = new Promise<Record<string, unknown>>((resolve, reject) => {
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1) ?? 'null') as Record<string, unknown>) : reject(new Error(`${role} exited ${code}: ${out}`))));
  });
  return { ready, answer };
}

// Prepares and commits ROWS session effects and writes the captured list the sweepers share.
function seed(dir: string, sessionId: string): void {
  const journal = createJournal({ crashpoint: () => {} });
  journal.open({ dir });
  const captured = [];
  for (let slot = 0; slot < ROWS; slot++) {
    const p = journal.prepare({ correlation: { kind: 'session', sessionId, turn: 1 }, slot, toolId: 'mcp/write', tier: 3, args: { n: slot }, secretArgKeys: [], outputMappingConfig: null, audit: { callId: `c${slot}` } });
    journal.settle({ effectId: p.effectId, state: 'committed', result: { ok: true } });
    captured.push({ effectId: p.effectId, sessionId, turn: 1, slot, toolId: 'mcp/write' });
  }
  journal.close();
  writeFileSync(join(dir, 'captured.json'), JSON.stringify(captured));
}

describe('row-files journal sweeps', () => {
  it(`two sweeps of the same ${ROWS} rows answer ${ROWS} and 0, and a reader sees ${ROWS} or 0, in ${ROUNDS} rounds`, async () => {
    const answers: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const dir = mkdtempSync(join(tmpdir(), 'ejc-row-files-'));
      dirs.push(dir);
      seed(dir, 's1');
      const a = child('sweep', dir, 's1');
      const b = child('sweep', dir, 's1');
      const reader = child('read', dir, 's1');
      await Promise.all([a.ready, b.ready, reader.ready]);
      writeFileSync(join(dir, 'go'), '');
      const [x, y] = await Promise.all([a.answer, b.answer]);
      writeFileSync(join(dir, 'stop'), '');
      const seen = (await reader.answer).seen as number[];
      answers.push(`round ${round}: ${String(x.deleted)} + ${String(y.deleted)}, reader saw ${seen.join('/')}`);
      expect([x.deleted, y.deleted].sort(), answers.join('; ')).toEqual([0, ROWS]);
      expect(seen.every((n) => n === 0 || n === ROWS), answers.join('; ')).toBe(true);
    }
  }, 120_000);
});
