import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dir } from 'tmp-promise';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Report } from '../../reports/schema.js';
import { verifyReport } from '../../reports/verify.js';
import { ejc } from './ejc-process.js';

// Two quick crash scenarios against the reference journal: enough for shards and a merge.
const SCENARIOS = ['--scenario', 'cp01.prepare-before-commit', '--scenario', 'cp04.after-settle'];

let tmp: { path: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  tmp = await dir({ unsafeCleanup: true });
});
afterEach(async () => {
  await tmp.cleanup();
});

async function readJson(path: string): Promise<Report> {
  return JSON.parse(await readFile(path, 'utf8')) as Report;
}

describe('ejc run (reference journal, real driver processes)', () => {
  it('writes a verifiable report and JUnit, and shards merge to the same outcome digest', async () => {
    const whole = await ejc(['run', ...SCENARIOS, '--out', join(tmp.path, 'whole'), '--junit', join(tmp.path, 'whole', 'junit.xml')]);
    expect(whole.exitCode, whole.stderr).toBe(0);
    expect(whole.stdout).toMatch(/^verdict: conformant/);
    // Lanes run side by side and take the longest first, so the position of a line depends on the machine.
    expect(whole.stderr).toMatch(/^\[[12]\/2\] cp04\.after-settle passed/m);
    const report = await readJson(join(tmp.path, 'whole', 'report.json'));
    expect(verifyReport(report)).toEqual({ ok: true, problems: [] });
    expect(report.seed).toBe(1);
    expect(report.counts.kills).toBeGreaterThanOrEqual(2);
    expect(await readFile(join(tmp.path, 'whole', 'junit.xml'), 'utf8')).toContain('tests="2" failures="0" errors="0"');

    const shardPaths: string[] = [];
    for (const index of [1, 2]) {
      const out = join(tmp.path, `shard${index}`);
      const r = await ejc(['run', ...SCENARIOS, '--shard', `${index}/2`, '--out', out]);
      expect(r.exitCode, r.stderr).toBe(0);
      shardPaths.push(join(out, 'report.json'));
    }
    const merged = await ejc(['merge', ...shardPaths, '--out', join(tmp.path, 'merged')]);
    expect(merged.exitCode, merged.stderr).toBe(0);
    const mergedReport = await readJson(join(tmp.path, 'merged', 'report.json'));
    expect(mergedReport.outcomeDigest).toBe(report.outcomeDigest);
    expect(verifyReport(mergedReport).ok).toBe(true);
  });

  it('prints only the report with --json, and verify --rerun reproduces its digest', async () => {
    const r = await ejc(['run', '--scenario', 'cp04.after-settle', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(verifyReport(report).ok).toBe(true);
    const path = join(tmp.path, 'report.json');
    await writeFile(path, r.stdout);
    const rerun = await ejc(['verify', path, '--rerun']);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stdout).toContain(`rerun reproduces the outcome digest ${report.outcomeDigest}`);
  });

  it('exits 1 when an expected failure passes (stale), and 3 for an unknown scenario', async () => {
    const expect1 = join(tmp.path, 'expect.txt');
    await writeFile(expect1, '# tracked elsewhere\ncp04.after-settle\n');
    const stale = await ejc(['run', '--scenario', 'cp04.after-settle', '--expect-failures', expect1]);
    expect(stale.exitCode, stale.stderr).toBe(1);
    expect(stale.stdout).toMatch(/verdict: nonconformant/);
    expect(stale.stdout).toContain('cp04.after-settle  stale_expected_failure');
    const unknown = await ejc(['run', '--scenario', 'cp4.after-settle']);
    expect(unknown.exitCode).toBe(3);
    expect(unknown.stderr).toContain('no scenario matches cp4.after-settle (closest: ');
  });
});
