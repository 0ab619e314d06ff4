// The one masking mechanism: canaries and declared secrets never leave by value, in text, bytes, JSON values or kept files.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dir } from 'tmp-promise';
import { describe, expect, it } from 'vitest';
import { EchoWatch } from '../../harness/secrets/echo-watch.js';
import { canaryLabel, maskBytes, maskText, maskTreeSync, maskValue, registerSecret } from '../../shared/secrets/mask.js';

const CANARY = 'EJC-CANARY-abc123def456';

describe('masking', () => {
  it('masks any canary by its shape and a registered secret by value, raw and JSON-escaped, longest first', () => {
    registerSecret('pa"ss\\word-1234', 'impl-secret:db');
    registerSecret('token-0123456789', 'impl-secret:short');
    registerSecret('token-0123456789-and-more', 'impl-secret:long');
    const text = `a ${CANARY} b pa"ss\\word-1234 ${JSON.stringify('pa"ss\\word-1234')} token-0123456789-and-more token-0123456789`;
    expect(maskText(text)).toBe(`a [masked ${canaryLabel(CANARY)}] b [masked impl-secret:db] "[masked impl-secret:db]" [masked impl-secret:long] [masked impl-secret:short]`);
    expect(maskText('nothing secret here')).toBe('nothing secret here');
    expect(() => registerSecret('short', 'x')).toThrow(/at least 8 characters/);
  });

  it('masks a canary registered under another label by that label, and by its usual one once registered under it again', () => {
    const canary = 'EJC-CANARY-relabel0042';
    registerSecret(canary, 'impl-secret:relabelled');
    expect(maskText(`x ${canary} y`)).toBe('x [masked impl-secret:relabelled] y');
    registerSecret(canary, canaryLabel(canary));
    expect(maskText(`x ${canary} y`)).toBe(`x [masked ${canaryLabel(canary)}] y`);
    // Thousands of canaries under their usual labels: each masked by its shape, none searched for by value.
    for (let i = 0; i < 2000; i++) registerSecret(`EJC-CANARY-bulk${i}x`, canaryLabel(`EJC-CANARY-bulk${i}x`));
    expect(maskText('EJC-CANARY-bulk1999x')).toBe(`[masked ${canaryLabel('EJC-CANARY-bulk1999x')}]`);
  });

  it('masks bytes without corrupting what surrounds them, and returns the same buffer when there is nothing to mask', () => {
    const bytes = Buffer.concat([Buffer.from([0, 255, 1]), Buffer.from(` ${CANARY} `), Buffer.from('é token-0123456789', 'utf8')]);
    registerSecret('token-0123456789', 'impl-secret:short');
    const masked = maskBytes(bytes);
    expect(masked.subarray(0, 3)).toEqual(Buffer.from([0, 255, 1]));
    expect(masked.toString('latin1')).not.toContain('EJC-CANARY-');
    expect(masked.subarray(3).toString('utf8')).toBe(` [masked ${canaryLabel(CANARY)}] é [masked impl-secret:short]`);
    const clean = Buffer.from('clean');
    expect(maskBytes(clean)).toBe(clean);
  });

  it('masks every string of a JSON value, keys included, keeping its shape', () => {
    const value = { list: [CANARY, 1, null, { [CANARY]: true }], n: 2, nested: { ok: 'fine' } };
    expect(maskValue(value)).toEqual({ list: [`[masked ${canaryLabel(CANARY)}]`, 1, null, { [`[masked ${canaryLabel(CANARY)}]`]: true }], n: 2, nested: { ok: 'fine' } });
    expect(value.list[0]).toBe(CANARY);
  });

  it('masks the harness-written files of a kept directory and leaves the skipped (journal) ones as evidence', async () => {
    const tmp = await dir({ unsafeCleanup: true });
    try {
      mkdirSync(join(tmp.path, 'journal'));
      mkdirSync(join(tmp.path, 'targets'));
      writeFileSync(join(tmp.path, 'journal', 'db'), CANARY);
      writeFileSync(join(tmp.path, 'targets', 'ledger.jsonl'), `{"echo":"${CANARY}"}\n`);
      writeFileSync(join(tmp.path, 'driver-1.stderr.log'), `debug ${CANARY}\n`);
      maskTreeSync(tmp.path, (p) => p === join(tmp.path, 'journal'));
      expect(readFileSync(join(tmp.path, 'journal', 'db'), 'utf8')).toBe(CANARY);
      expect(readFileSync(join(tmp.path, 'targets', 'ledger.jsonl'), 'utf8')).toBe(`{"echo":"[masked ${canaryLabel(CANARY)}]"}\n`);
      expect(readFileSync(join(tmp.path, 'driver-1.stderr.log'), 'utf8')).not.toContain('EJC-CANARY-');
    } finally {
      await tmp.cleanup();
    }
  });
});

describe('EchoWatch', () => {
  it('finds a planted secret in driver output even when it is split across chunks, once per driver and stream', () => {
    const watch = new EchoWatch();
    watch.plant(CANARY);
    const primary = watch.tap('primary#1');
    primary('stdout', Buffer.from('{"result":"EJC-CANA'));
    primary('stdout', 'RY-abc123def456"}\n');
    primary('stdout', `${CANARY}\n`);
    primary('stderr', 'nothing here\n');
    watch.tap('rival#2')('stderr', `log ${CANARY}`);
    expect(watch.findings()).toEqual([
      { driver: 'primary#1', stream: 'stdout', secret: canaryLabel(CANARY) },
      { driver: 'rival#2', stream: 'stderr', secret: canaryLabel(CANARY) },
    ]);
    expect(watch.planted).toBe(1);
  });

  it('with nothing planted it finds nothing', () => {
    const watch = new EchoWatch();
    watch.tap('d')('stdout', CANARY);
    expect(watch.findings()).toEqual([]);
  });
});
