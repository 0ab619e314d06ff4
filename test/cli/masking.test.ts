// No secret leaves through the harness: a driver that echoes its canaries and its secret option fails the
// secrets clause, and neither value appears in stdout, stderr, the report, JUnit or a kept directory.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dir } from 'tmp-promise';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Report } from '../../reports/schema.js';
import { verifyReport } from '../../reports/verify.js';
import { ejc } from './ejc-process.js';

const BROKEN = fileURLToPath(new URL('../broken/broken-journal.mjs', import.meta.url));
const SECRET = 'hunter2-database-password';

let tmp: { path: string; cleanup: () => Promise<void> };
let kept: string[] = [];
beforeEach(async () => {
  tmp = await dir({ unsafeCleanup: true });
  kept = [];
});
afterEach(async () => {
  for (const path of kept) rmSync(path, { recursive: true, force: true });
  await tmp.cleanup();
});

function filesUnder(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const path = join(root, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('masking, end to end through ejc run', () => {
  it('a driver echoing planted canaries and its --impl-secret: a conclusive §11 failure, every output masked, the secret passed by environment', async () => {
    const out = join(tmp.path, 'out');
    // A private TMPDIR: after the kept directory is removed, nothing of the run may be left in it.
    const trials = join(tmp.path, 'trials');
    mkdirSync(trials);
    const r = await ejc([
      'run', '--impl', BROKEN, '--impl-option', 'defect=echoes-args-on-stderr', '--impl-secret', `password=${SECRET}`,
      '--scenario', 'secrets.args-never-on-disk', '--out', out, '--junit', join(out, 'junit.xml'), '--keep-failed',
    ], { env: { TMPDIR: trials } });
    expect(r.exitCode, r.stderr).toBe(1);
    kept = [...r.stderr.matchAll(/kept the trial directory of \S+: (\S+)/g)].map((m) => m[1]!);
    expect(kept).toHaveLength(1);

    const reportText = readFileSync(join(out, 'report.json'), 'utf8');
    const report = JSON.parse(reportText) as Report;
    expect(verifyReport(report)).toEqual({ ok: true, problems: [] });
    const trial = report.scenarios[0]!.trials[0]!;
    const echo = trial.assertions.find((a) => a.name.startsWith('the driver repeats no planted secret'))!;
    expect(echo).toMatchObject({ passed: false, conclusive: true });
    expect(JSON.stringify(echo.actual)).toMatch(/primary#1 stderr: \[masked canary:[0-9a-f]{12}\]/);
    expect(report.scenarios[0]!.reason).toMatch(/^the driver repeats no planted secret/);
    // The secret is named, never recorded: reproduce commands read it from a variable.
    expect(report.implementation.launch).toMatchObject({ secretOptions: { password: 'EJC_IMPL_SECRET_PASSWORD' } });
    expect(report.reproduce.run).toContain('--impl-secret password=env:EJC_IMPL_SECRET_PASSWORD');
    expect(report.scenarios[0]!.reproduce).toContain('--impl-secret password=env:EJC_IMPL_SECRET_PASSWORD');

    const keptFiles = filesUnder(kept[0]!);
    const harnessFiles = keptFiles.filter((f) => !f.startsWith(join(kept[0]!, 'journal')));
    expect(harnessFiles.map((f) => f.slice(kept[0]!.length + 1)).sort()).toEqual(expect.arrayContaining(['driver-1.stderr.log', 'engine-events.jsonl', 'targets/payments.ledger.jsonl']));
    const outputs: Array<[string, string]> = [
      ['stdout', r.stdout],
      ['stderr', r.stderr],
      ['report.json', reportText],
      ['junit.xml', readFileSync(join(out, 'junit.xml'), 'utf8')],
      ...harnessFiles.map((f): [string, string] => [f, readFileSync(f, 'latin1')]),
    ];
    for (const [name, text] of outputs) {
      expect(text, name).not.toContain('EJC-CANARY-');
      expect(text, name).not.toContain(SECRET);
    }
    // The masks stand where the values were: in the report's stderr tail, JUnit's failure and the kept log.
    expect(trial.stderrTail.join('\n')).toMatch(/apiToken":"\[masked canary:[0-9a-f]{12}\]"/);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain('[masked canary:');
    const log = readFileSync(join(kept[0]!, 'driver-1.stderr.log'), 'utf8');
    // The adapter got the value (the harness masked it where it was echoed), from its environment, not its argv.
    expect(log).toContain('"password":"[masked impl-secret:password]"');
    expect(/argv=(\[.*\])/.exec(log)?.[1]).not.toContain('password');
    rmSync(kept[0]!, { recursive: true, force: true });
    expect(readdirSync(trials)).toEqual([]);
  });
});
