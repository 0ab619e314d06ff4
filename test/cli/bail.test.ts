// --bail: the first failure stops the run; the partial report verifies as partial, and merge refuses it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dir } from 'tmp-promise';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Report } from '../../reports/schema.js';
import { verifyReport } from '../../reports/verify.js';
import { ejc } from './ejc-process.js';

const BROKEN = fileURLToPath(new URL('../broken/broken-journal.mjs', import.meta.url));
// Each of these fails against this defect, so whichever runs first stops the run.
const FAILING = ['cp02.after-prepare.tier3', 'cp03.after-dispatch.tier3', 'cp08.settle-write-fails'];

let tmp: { path: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  tmp = await dir({ unsafeCleanup: true });
});
afterEach(async () => {
  await tmp.cleanup();
});

describe('ejc run --bail', () => {
  it('stops at the first failure and writes a valid report marked partial, which verify names and merge refuses', async () => {
    const out = join(tmp.path, 'bail');
    const args = ['run', '--impl', BROKEN, '--impl-option', 'defect=retries-after-ambiguous', ...FAILING.flatMap((s) => ['--scenario', s])];
    const r = await ejc([...args, '--jobs', '1', '--bail', '--shard', '1/1', '--out', out]);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/partial: --bail stopped the run after (cp02.after-prepare.tier3|cp03.after-dispatch.tier3|cp08.settle-write-fails); 2 scenario\(s\) never ran/);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
    expect(verifyReport(report)).toEqual({ ok: true, problems: [] });
    expect(report.scenarios.map((s) => [s.id, s.verdict])).toEqual([[report.partial?.stoppedAfter, 'failed']]);
    expect(report.partial?.notRun.sort()).toEqual(FAILING.filter((id) => id !== report.partial?.stoppedAfter));
    expect(report.verdict).toBe('nonconformant');

    // Intact, and its verdict is nonconformant: verify exits with the verdict, --integrity-only with 0.
    const verified = await ejc(['verify', join(out, 'report.json')]);
    expect(verified.exitCode, verified.stderr).toBe(1);
    expect((await ejc(['verify', join(out, 'report.json'), '--integrity-only'])).exitCode).toBe(0);
    expect(verified.stdout).toContain('partial: --bail stopped the run after');
    const merged = await ejc(['merge', join(out, 'report.json'), '--out', join(tmp.path, 'merged')]);
    expect(merged.exitCode).toBe(3);
    expect(merged.stderr).toContain('is partial (--bail stopped it after');

    // Tampering with the mark is caught: a partial report may not hide a scenario it ran among the ones it did not.
    const forged = { ...report, partial: { ...report.partial!, notRun: [...report.partial!.notRun, report.partial!.stoppedAfter] } };
    expect(verifyReport(forged).problems).toContain(`$.partial.notRun[2]: ${report.partial!.stoppedAfter} is also among the scenarios that ran`);
  });
});
