import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dir } from 'tmp-promise';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeReportFile } from '../../reports/write-report.js';
import { verifyReport } from '../../reports/verify.js';
import { buildReport } from '../reports/fixture.js';
import { ejc } from './ejc-process.js';

let tmp: { path: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  tmp = await dir({ unsafeCleanup: true });
});
afterEach(async () => {
  await tmp.cleanup();
});

describe('ejc verify', () => {
  it('exits 0 for a valid report', async () => {
    const path = await writeReportFile(join(tmp.path, 'ok'), buildReport());
    const r = await ejc(['verify', path]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('valid conformant report (5 scenarios');
  });

  it('exits 1 and prints each problem with its path for a tampered report', async () => {
    const report = buildReport();
    report.counts.duplicateWrites = 3;
    const path = await writeReportFile(join(tmp.path, 'bad'), report);
    const r = await ejc(['verify', path]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('$.counts.duplicateWrites: is 3, the trials sum to 0');
    expect(r.stdout).toContain('$.counts.duplicateWrites: a conformant report has 3, must be 0');
    expect(r.stdout).toMatch(/\$\.contentHash: is [0-9a-f]{64}, the content hashes to/);
  });

  it('exits 3 for a missing file and for bad JSON, naming the position', async () => {
    const missing = await ejc(['verify', join(tmp.path, 'none.json')]);
    expect(missing.exitCode).toBe(3);
    expect(missing.stderr).toContain('report_unreadable: cannot read report');
    const bad = join(tmp.path, 'bad.json');
    await writeFile(bad, '{"schema": {"name": "x"},\n  oops}');
    const r = await ejc(['verify', bad]);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/is not JSON: .*\(line 2, column 3\)/);
  });

  it('refuses to rerun a reproduce command that is not an ejc run', async () => {
    const report = buildReport();
    const { outcomeDigest: _o, contentHash: _c, ...rest } = report;
    const { sealReport } = await import('../../reports/seal.js');
    const sneaky = sealReport({ ...rest, reproduce: { run: 'rm -rf / --json', verify: 'npx ejc verify report.json' } });
    const path = await writeReportFile(join(tmp.path, 'sneaky'), sneaky);
    const r = await ejc(['verify', path, '--rerun']);
    // The command is never run: it does not even agree with the report, so verify stops at its problems.
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('$.reproduce.run: is not an "ejc run" command: rm -rf / --json');
  });
});

describe('ejc merge', () => {
  it('merges complete shards into a report that verifies and matches the unsharded digest', async () => {
    const paths: string[] = [];
    for (const index of [1, 2]) paths.push(await writeReportFile(join(tmp.path, `shard${index}`), buildReport(undefined, { shard: { index, count: 2 } })));
    const out = join(tmp.path, 'merged');
    const junit = join(tmp.path, 'merged', 'junit.xml');
    const r = await ejc(['merge', paths[1]!, paths[0]!, '--out', out, '--junit', junit]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const merged = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as { outcomeDigest: string; selection: { shard: unknown } };
    expect(verifyReport(merged)).toEqual({ ok: true, problems: [] });
    expect(merged.outcomeDigest).toBe(buildReport().outcomeDigest);
    expect(merged.selection.shard).toBeNull();
    expect(r.stdout).toContain(`outcomeDigest ${merged.outcomeDigest}`);
    expect(await readFile(junit, 'utf8')).toContain('tests="5"');
    const check = await ejc(['verify', join(out, 'report.json')]);
    expect(check.exitCode).toBe(0);
  });

  it('exits 3 naming the missing shard', async () => {
    const path = await writeReportFile(join(tmp.path, 'shard1'), buildReport(undefined, { shard: { index: 1, count: 3 } }));
    const r = await ejc(['merge', path, '--out', join(tmp.path, 'merged')]);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('missing shard(s) 2/3, 3/3');
  });
});
