// The generated trials' journal byte scan: a file read back byte for byte the same reuses its answer, any change is decoded again.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import { ScanMemo, scanJournalDir } from '../../harness/explore/scan.js';
import type { TrialDir } from '../../harness/trial-dir.js';
import { tinyTrial } from '../harness/helpers.js';

const A = 'ejc-canary-Zq81mVb2Xk7pL0w';
const B = 'ejc-canary-Hh3Ty9Qs0Nn4Rr6';

let dir: TrialDir;
let t: TrialContext;
let end: () => Promise<void>;
beforeEach(async () => {
  ({ t, dir, end } = await tinyTrial('scan#1'));
  t.enableHistory();
});
afterEach(() => end());

// The scans recorded in the history, as the model reads them.
function scans(): unknown[] {
  return (t.history ?? []).filter((e) => e.kind === 'scan').map((e) => ({ ...e, liveDrivers: undefined }));
}

describe('scanJournalDir with a ScanMemo', () => {
  it('records exactly what a scan without it records, and decodes only files whose bytes changed', () => {
    const main = join(dir.path, 'effects.db');
    const wal = join(dir.path, 'effects.db-wal');
    writeFileSync(main, `header ${Buffer.from(A).toString('base64')} trailer`);
    writeFileSync(wal, 'nothing yet');
    const memo = new ScanMemo();
    const both = (canaries: string[]): void => {
      scanJournalDir(t, dir.path, canaries, memo);
      scanJournalDir(t, dir.path, canaries);
    };
    both([A, B]);
    expect(memo.decoded).toBe(2);
    // Nothing changed: both files answered from the memo.
    both([A, B]);
    expect(memo.decoded).toBe(2);
    // The WAL grows and now holds B hex-encoded; the main file is unchanged: only the WAL is decoded again.
    appendFileSync(wal, ` ${Buffer.from(B).toString('hex')}`);
    both([A, B]);
    expect(memo.decoded).toBe(3);
    // Same length, different bytes: never taken for the old file.
    writeFileSync(main, `header ${Buffer.from(A.replace('Z', 'Y')).toString('base64')} trailer`);
    both([A, B]);
    expect(memo.decoded).toBe(4);
    // A canary planted later is looked for in files the memo already knows.
    const C = 'ejc-canary-Pp5Gg2Ww8Ee1Uu3';
    appendFileSync(wal, ` ${C}`);
    both([A, B, C]);
    const recorded = scans();
    expect(recorded).toHaveLength(10);
    for (let i = 0; i < recorded.length; i += 2) expect(recorded[i]).toEqual(recorded[i + 1]);
    const hits = (k: number) => (recorded[k] as { hits: Array<{ id: number; file: string }> }).hits;
    expect(hits(0)).toEqual([{ id: 0, file: 'effects.db' }]);
    expect(hits(4)).toEqual([{ id: 0, file: 'effects.db' }, { id: 1, file: 'effects.db-wal' }]);
    expect(hits(6)).toEqual([{ id: 1, file: 'effects.db-wal' }]);
    expect(hits(8)).toEqual([{ id: 1, file: 'effects.db-wal' }, { id: 2, file: 'effects.db-wal' }]);
  });

  it('asks a found canary again once a sibling is planted that can take its folded hit', () => {
    // Lowercased, canary …x2Z is the start of …x2zZ (see canary-forms): with only the first planted, the folded bytes are
    // its hit; once the second is planted they are the second's, on the very same bytes.
    const two = 'EJC-CANARY-NYQ3NNGX1CD00021gqp5nx2Z';
    const later = 'EJC-CANARY-NYQ3NNGX1CD00021gqp5nx2zZ';
    writeFileSync(join(dir.path, 'effects.db'), `row ${later.toLowerCase()} end`);
    const memo = new ScanMemo();
    scanJournalDir(t, dir.path, [two], memo);
    scanJournalDir(t, dir.path, [two, later], memo);
    scanJournalDir(t, dir.path, [two, later]);
    const [alone, memoised, fresh] = scans() as Array<{ hits: Array<{ id: number; file: string }> }>;
    expect(alone!.hits).toEqual([{ id: 0, file: 'effects.db' }]);
    expect(memoised!.hits).toEqual([{ id: 1, file: 'effects.db' }]);
    expect(memoised).toEqual(fresh);
  });
});
