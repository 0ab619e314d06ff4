import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dir } from 'tmp-promise';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeReportFile } from '../../reports/write-report.js';
import { verifyReport } from '../../reports/verify.js';
import { buildReport, defaultScenarios, scenario, trial } from '../reports/fixture.js';
import { ejc } from './ejc-process.js';

let tmp: { path: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  tmp = await dir({ unsafeCleanup: true });
});
afterEach(async () => {
  await tmp.cleanup();
});

/** A sealed, intact report whose first scenario failed one assertion: verdict nonconformant. */
function nonconformant(shard?: { index: number; count: number }) {
  const scenarios = defaultScenarios();
  scenarios[1] = scenario('cp02.after-prepare', [trial('t1', { verdict: 'failed', assertions: [{ name: 'writes', expected: 1, actual: 2, passed: false }] })], { verdict: 'failed', reason: 'assertion failed: writes' });
  return buildReport(scenarios, shard === undefined ? {} : { shard });
}

describe('exit codes that fit CI', () => {
  it('verify exits with an intact report\'s verdict (1 for nonconformant), and 0 with --integrity-only', async () => {
    const report = nonconformant();
    expect(report.verdict).toBe('nonconformant');
    expect(verifyReport(report)).toEqual({ ok: true, problems: [] });
    const path = await writeReportFile(join(tmp.path, 'nc'), report);
    const r = await ejc(['verify', path]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('valid nonconformant report');
    expect(r.stdout).toContain('exit 1: the report is intact and its verdict is nonconformant');
    const only = await ejc(['verify', path, '--integrity-only']);
    expect(only.exitCode).toBe(0);
    expect(only.stdout).not.toContain('exit 1');
  });

  it('merge exits with the merged verdict (1 for nonconformant), and 0 with --integrity-only', async () => {
    const paths: string[] = [];
    for (const index of [1, 2]) paths.push(await writeReportFile(join(tmp.path, `s${index}`), nonconformant({ index, count: 2 })));
    const r = await ejc(['merge', ...paths, '--out', join(tmp.path, 'm1')]);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stdout).toContain(': nonconformant (');
    const only = await ejc(['merge', ...paths, '--out', join(tmp.path, 'm2'), '--integrity-only']);
    expect(only.exitCode, only.stderr).toBe(0);
  });

  it('refuses to overwrite a report in --out without --force, and replaces it with --force', async () => {
    const paths: string[] = [];
    for (const index of [1, 2]) paths.push(await writeReportFile(join(tmp.path, `s${index}`), buildReport(undefined, { shard: { index, count: 2 } })));
    const out = join(tmp.path, 'merged');
    expect((await ejc(['merge', ...paths, '--out', out])).exitCode).toBe(0);
    const before = await readFile(join(out, 'report.json'), 'utf8');
    const again = await ejc(['merge', ...paths, '--out', out]);
    expect(again.exitCode).toBe(3);
    expect(again.stderr).toContain(`--out ${out} already holds a report (${join(out, 'report.json')}); pass --force to replace it`);
    expect(await readFile(join(out, 'report.json'), 'utf8')).toBe(before);
    const forced = await ejc(['merge', ...paths, '--out', out, '--force']);
    expect(forced.exitCode, forced.stderr).toBe(0);
    // ejc run checks it before any trial: the refusal costs nothing and the old report stays.
    const run = await ejc(['run', '--scenario', 'cp04.after-settle', '--out', out]);
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toContain('already holds a report');
    expect(run.stderr).not.toContain('verdict');
  });

  it('verify of a signature envelope says which report to pass with it instead of listing schema errors', async () => {
    const path = join(tmp.path, 'report.dsse.json');
    await writeFile(path, JSON.stringify({ payloadType: 'application/vnd.in-toto+json', payload: 'e30=', signatures: [{ keyid: 'k', sig: 'AA==' }] }));
    const r = await ejc(['verify', path]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe(`${path}: is a DSSE signature envelope (ejc sign writes one beside the report), not a report. Verify the report it signs and pass the envelope with it: ejc verify ${join(tmp.path, 'report.json')} --trust <public key>`);
    const other = join(tmp.path, 'sig.json');
    await writeFile(other, JSON.stringify({ payloadType: 'application/vnd.in-toto+json', payload: 'e30=', signatures: [] }));
    expect((await ejc(['verify', other])).stdout).toContain(`--envelope ${other}`);
  });
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
