// Expected failures never make a report say conformant: run, verify and merge keep the verdict nonconformant and let the exit code carry "known".
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dir } from 'tmp-promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../reports/schema.js';
import { verifyReport } from '../../reports/verify.js';
import { ejc } from './ejc-process.js';

const BROKEN = fileURLToPath(new URL('../broken/broken-journal.mjs', import.meta.url));
// The gate of this journal never refuses: cp02 fails, cp04 passes.
const IMPL = ['--impl', BROKEN, '--impl-option', 'defect=retries-after-ambiguous', '--timeout', '60000'];
const SCENARIOS = ['--scenario', 'cp02.after-prepare.tier3', '--scenario', 'cp04.after-settle'];

let tmp: { path: string; cleanup: () => Promise<void> };
let expectFile = '';
beforeAll(async () => {
  tmp = await dir({ unsafeCleanup: true });
  expectFile = join(tmp.path, 'known-failures.txt');
  await writeFile(expectFile, 'cp02.after-prepare.tier3\n');
  await mkdir(join(tmp.path, 'trials'));
});
afterAll(async () => {
  await tmp.cleanup();
});

async function readReport(out: string): Promise<Report> {
  return JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
}

describe('--expect-failures', () => {
  it('a journal failing only listed scenarios: verdict nonconformant in run, verify and merge; exit 0; a shard of only expected failures is not inconclusive', async () => {
    const shards: string[] = [];
    const runs = [];
    for (const index of [1, 2]) {
      const out = join(tmp.path, `shard${index}`);
      const r = await ejc(['run', ...IMPL, ...SCENARIOS, '--expect-failures', expectFile, '--shard', `${index}/2`, '--out', out], { env: { TMPDIR: join(tmp.path, 'trials') } });
      expect(r.exitCode, r.stderr).toBe(0);
      runs.push(r);
      shards.push(join(out, 'report.json'));
    }
    // Shards split by recorded durations, so either may hold cp02. The one that holds only cp02, the expected failure,
    // is a known failure: neither conformant nor "nothing passed".
    const reports = await Promise.all([1, 2].map((i) => readReport(join(tmp.path, `shard${i}`))));
    const at = reports.findIndex((r) => r.scenarios.some((s) => s.id === 'cp02.after-prepare.tier3'));
    expect(at).toBeGreaterThanOrEqual(0);
    const first = reports[at]!;
    expect(first.scenarios.map((s) => [s.id, s.verdict])).toEqual([['cp02.after-prepare.tier3', 'expected_failure']]);
    expect(first.verdict).toBe('nonconformant');
    expect(verifyReport(first)).toEqual({ ok: true, problems: [] });
    expect(runs[at]!.stdout).toMatch(/^verdict: nonconformant/);
    expect(runs[at]!.stdout).toContain('cp02.after-prepare.tier3: assertion failed');
    expect(runs[at]!.stdout).toContain('every failure is listed as expected: exit 0, the verdict stays nonconformant');

    const mergedDir = join(tmp.path, 'merged');
    const merged = await ejc(['merge', ...shards, '--out', mergedDir]);
    expect(merged.exitCode, merged.stderr).toBe(0);
    expect(merged.stdout).toContain(': nonconformant (1 passed, 0 failed');
    const mergedReport = await readReport(mergedDir);
    expect(mergedReport.verdict).toBe('nonconformant');
    expect(mergedReport.summary).toMatchObject({ passed: 1, failed: 0, expectedFailures: 1 });

    const verify = await ejc(['verify', join(mergedDir, 'report.json')]);
    expect(verify.exitCode, verify.stderr).toBe(0);
    expect(verify.stdout).toContain('valid nonconformant report');
    expect(verify.stdout).toContain('1 expected failure(s): cp02.after-prepare.tier3; every failure is listed as expected');
    expect(await readdir(join(tmp.path, 'trials'))).toEqual([]);
  });
});
