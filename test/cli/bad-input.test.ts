// Bad input to the CLI gets a named error and exit code, never a stack: deeply nested report files, a negative
// number where a flag's value goes, an empty --cmd. Real `ejc` processes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REPORT_DEPTH } from '../../reports/read-report.js';
import { ejc } from './ejc-process.js';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'ejc-bad-input-test-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const noStack = (stderr: string): void => expect(stderr).not.toMatch(/RangeError|internal error|\n\s+at /);

describe('a report nested deeper than any report', () => {
  it.each([
    ['arrays', (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`],
    ['objects', (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`],
  ])('of %s 100,000 levels deep: verify and report refuse it as report_unreadable, naming the limit', async (_, nest) => {
    const file = join(tmp, 'deep.json');
    writeFileSync(file, nest(100_000));
    for (const args of [['verify', file], ['report', file, '--html', join(tmp, 'r.html')]]) {
      const r = await ejc(args);
      expect(r.exitCode, r.stderr).toBe(3);
      expect(r.stderr).toContain(`ejc: report_unreadable: report ${file} nests arrays or objects more than ${MAX_REPORT_DEPTH} levels deep`);
      noStack(r.stderr);
    }
  });
});

describe('flag values', () => {
  it('--seed -1 is a usage error saying a negative number is not a seed, and how to pass a dash value', async () => {
    const r = await ejc(['run', '--seed', '-1', '--scenario', 'cp04.after-settle']);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('ejc: usage error: --seed was given "-1": a negative number is not a valid --seed');
    noStack(r.stderr);
    const eq = await ejc(['run', '--seed=-1', '--scenario', 'cp04.after-settle']);
    expect(eq.stderr).toContain('ejc: usage error: --seed must be an integer from 0 to');
  });

  it.each([[''], ['   ']])('--cmd %j is a usage error, before any driver is started', async (cmd) => {
    const r = await ejc(['run', '--cmd', cmd, '--scenario', 'cp04.after-settle']);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('ejc: usage error: --cmd was given an empty command');
    noStack(r.stderr);
  });
});
