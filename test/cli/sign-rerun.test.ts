// ejc keygen / run --sign / sign / verify --trust end to end, and verify --rerun never running what a report says.
import { existsSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dir } from 'tmp-promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../reports/fingerprint.js';
import type { Report } from '../../reports/schema.js';
import { sealReport } from '../../reports/seal.js';
import { verifyReport } from '../../reports/verify.js';
import { writeReportFile } from '../../reports/write-report.js';
import { buildReport, clone } from '../reports/fixture.js';
import { ejc } from './ejc-process.js';

const TINY = fileURLToPath(new URL('../fixtures/adapters/tiny-journal.mjs', import.meta.url));
const SCENARIOS = ['cp04.after-settle', 'identity.scope-exact'];

let tmp: { path: string; cleanup: () => Promise<void> };
let report: Report;
let reportPath: string;
beforeAll(async () => {
  tmp = await dir({ unsafeCleanup: true });
  const keys = await ejc(['keygen', '--out', join(tmp.path, 'auditor')]);
  expect(keys.exitCode).toBe(0);
  const run = await ejc(['run', ...SCENARIOS.flatMap((s) => ['--scenario', s]), '--out', join(tmp.path, 'run'), '--sign', join(tmp.path, 'auditor.key')]);
  expect(run.exitCode, run.stderr).toBe(0);
  reportPath = join(tmp.path, 'run', 'report.json');
  report = JSON.parse(await readFile(reportPath, 'utf8')) as Report;
}, 120_000);
afterAll(async () => {
  await tmp.cleanup();
});

function reseal(r: Report): Report {
  const { outcomeDigest: _o, contentHash: _c, ...rest } = r;
  return sealReport(rest);
}

describe('ejc keygen', () => {
  it('writes a 0600 private key and a public key, never prints the private key, never overwrites', async () => {
    const prefix = join(tmp.path, 'auditor');
    expect(statSync(`${prefix}.key`).mode & 0o777).toBe(0o600);
    const privateBody = (await readFile(`${prefix}.key`, 'utf8')).split('\n')[1]!;
    const again = await ejc(['keygen', '--out', prefix]);
    expect(again.exitCode).toBe(3);
    expect(again.stderr).toContain('already exists: keygen never overwrites a key');
    const fresh = await ejc(['keygen', '--out', join(tmp.path, 'other')]);
    expect(fresh.stdout).toMatch(/wrote private key .*other\.key \(mode 0600/);
    expect(fresh.stdout + fresh.stderr).not.toContain((await readFile(join(tmp.path, 'other.key'), 'utf8')).split('\n')[1]!);
    expect(fresh.stdout).not.toContain(privateBody);
  });
});

describe('ejc verify --trust', () => {
  it('authenticates the report ejc run --sign wrote; without a key it says the report is only self-consistent', async () => {
    expect(existsSync(join(tmp.path, 'run', 'report.dsse.json'))).toBe(true);
    const trusted = await ejc(['verify', reportPath, '--trust', join(tmp.path, 'auditor.pub')]);
    expect(trusted.exitCode, trusted.stdout).toBe(0);
    expect(trusted.stdout).toContain(`authenticated: signed by trusted key`);
    expect(trusted.stdout).toContain(report.fingerprint.digest);
    const plain = await ejc(['verify', reportPath]);
    expect(plain.exitCode).toBe(0);
    expect(plain.stdout).toContain('self-consistent but unauthenticated');
    expect(plain.stdout).toContain('pass --trust <public key> to check its signature');
  });

  it('fails a resealed forgery and another key (relabelling: test/reports/sign.test.ts), and ejc sign refuses a report that does not verify', async () => {
    const forged = clone(report);
    forged.scenarios[0]!.trials[0]!.assertions[0]!.actual = 'forged';
    const forgedDir = join(tmp.path, 'forged');
    await writeReportFile(forgedDir, reseal(forged));
    await writeFile(join(forgedDir, 'report.dsse.json'), await readFile(join(tmp.path, 'run', 'report.dsse.json')));
    const r = await ejc(['verify', join(forgedDir, 'report.json'), '--trust', join(tmp.path, 'auditor.pub')]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('valid conformant report');
    expect(r.stdout).toMatch(/not authenticated by .*report\.dsse\.json:\n {4}statement\.predicate: the signed report differs from this one/);

    const other = await ejc(['verify', reportPath, '--trust', join(tmp.path, 'other.pub')]);
    expect(other.exitCode).toBe(1);
    expect(other.stdout).toContain('none of 1 signature(s) verifies with a trusted key');

    const bad = clone(report);
    bad.counts.kills += 1;
    await writeFile(join(forgedDir, 'report.json'), JSON.stringify(bad));
    const sign = await ejc(['sign', join(forgedDir, 'report.json'), '--key', join(tmp.path, 'auditor.key')]);
    expect(sign.exitCode).toBe(1);
    expect(sign.stdout).toContain('not signed');
  });
});

describe('ejc verify --rerun', () => {
  it('names the one scenario whose recorded outcome was edited (an unedited rerun: test/cli/run.test.ts)', async () => {
    const edited = clone(report);
    const cp04 = edited.scenarios.find((s) => s.id === 'cp04.after-settle')!;
    const original = cp04.trials[0]!.assertions[0]!.actual;
    cp04.trials[0]!.assertions[0]!.actual = 'edited';
    const editedDir = join(tmp.path, 'edited');
    await writeReportFile(editedDir, reseal(edited));
    const r = await ejc(['verify', join(editedDir, 'report.json'), '--rerun', '--jobs', '2']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('rerun does not reproduce the outcome digest');
    expect(r.stdout).toContain(`cp04.after-settle: passed; trials[0].assertions[0].actual: "edited" → ${JSON.stringify(original)}`);
    expect(r.stdout).not.toContain('identity.scope-exact:');
    expect(r.stdout).toContain(`the implementation files match the report's fingerprint ${report.fingerprint.digest}`);
  }, 120_000);

  it('runs nothing a crafted report names: it prints the command and refuses, or runs the auditor\'s implementation', async () => {
    const marker = join(tmp.path, 'pwned');
    const command = `touch ${marker}`;
    const crafted = clone(buildReport());
    crafted.implementation.launch = { kind: 'command', command };
    crafted.fingerprint = fingerprintOf([{ path: '/usr/bin/touch', role: 'executable', sha256: 'e'.repeat(64), bytes: 1 }]);
    crafted.selection.scenarios = ['identity.scope-exact'];
    crafted.reproduce.run = `npx ejc run --cmd '${command}' --scenario identity.scope-exact --seed 1`;
    for (const s of crafted.scenarios) s.reproduce = `npx ejc run --cmd '${command}' --scenario ${s.id} --seed 1`;
    const sealed = reseal(crafted);
    expect(verifyReport(sealed).problems).toEqual([]);
    const path = await writeReportFile(join(tmp.path, 'crafted'), sealed);

    const refused = await ejc(['verify', path, '--rerun']);
    expect(refused.exitCode).toBe(3);
    expect(refused.stdout).toContain(`the report names its implementation as: --cmd ${JSON.stringify(command)}`);
    expect(refused.stderr).toContain('verify --rerun does not run what a report names: pass your copy of the implementation with --impl <module> or --cmd <command>');
    expect(existsSync(marker)).toBe(false);

    const own = await ejc(['verify', path, '--rerun', '--impl', TINY]);
    expect(own.exitCode).toBe(1);
    expect(own.stderr).toContain(`rerunning your --impl ${TINY}`);
    expect(own.stdout).toContain('cp01.kill-before-commit: only in the report');
    expect(own.stdout).toContain('the implementation that ran is not the one the report names');
    expect(existsSync(marker)).toBe(false);

    // A reproduce command is never run either: one that disagrees with the report fails verify before anything runs.
    const sneaky = clone(buildReport());
    sneaky.reproduce.run = `npx ejc run --cmd 'touch ${marker}-2'`;
    const sneakyPath = await writeReportFile(join(tmp.path, 'sneaky'), reseal(sneaky));
    const s = await ejc(['verify', sneakyPath, '--rerun']);
    expect(s.exitCode).toBe(1);
    expect(s.stdout).toContain(`$.reproduce.run: runs --cmd "touch ${marker}-2", the report's implementation is the bundled reference journal`);
    expect(existsSync(`${marker}-2`)).toBe(false);

    // The control: accepting the report's command explicitly does run it, so the checks above could fail.
    const accepted = await ejc(['verify', path, '--rerun', '--accept-report-command']);
    expect(accepted.stderr).toContain(`running the implementation as the report names it (--accept-report-command): --cmd ${JSON.stringify(command)}`);
    expect(existsSync(marker)).toBe(true);
  }, 120_000);
});
