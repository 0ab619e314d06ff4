// The Python journal (examples/python-journal) under the real harness: conformant where applicable, and its broken copy caught.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dir } from 'tmp-promise';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Report } from '../../reports/schema.js';
import { verifyReport } from '../../reports/verify.js';
import { ejc } from '../cli/ejc-process.js';

// Absolute: the harness starts --cmd drivers inside each trial directory, not in the repository.
const JOURNAL = fileURLToPath(new URL('../../examples/python-journal/journal.py', import.meta.url));
const BROKEN = fileURLToPath(new URL('./broken-python/broken_journal.py', import.meta.url));

// A slice of the matrix that covers replay, digest, faults, sessions, byte scans and concurrency (the full run takes ~1 min).
const APPLICABLE = [
  'cp04.after-settle',
  'cp04.after-settle.secret-only-change',
  'cp07.concurrent-prepare.race',
  'cp08.settle-write-fails',
  'cp10.session.disclose-once',
  'secrets.args-never-on-disk',
  // Without announced crash points, the strace sweep is what kills it inside its own operations.
  'sweep.settle.every-write',
];
// Each needs an internal crash point the Python journal does not announce.
const NEEDS_CRASH_POINT = ['cp01.prepare-before-commit', 'cp07.concurrent-prepare.killed-holder', 'cp07.concurrent-prepare.interleaved', 'cp11.session-sweep.kill-between-chunks'];

let tmp: { path: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  tmp = await dir({ unsafeCleanup: true });
});
afterEach(async () => {
  await tmp.cleanup();
});

async function run(command: string, scenarios: readonly string[]): Promise<{ exitCode: number; stdout: string; stderr: string; report: Report }> {
  const out = join(tmp.path, 'out');
  const r = await ejc(['run', '--cmd', command, ...scenarios.flatMap((s) => ['--scenario', s]), '--out', out]);
  const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
  return { ...r, report };
}

function verdicts(report: Report): Record<string, string> {
  return Object.fromEntries(report.scenarios.map((s) => [s.id, s.verdict]));
}

describe('examples/python-journal (python3 + sqlite3, real driver processes and SIGKILL)', () => {
  it('is conformant: applicable scenarios pass, crash-point scenarios are not_applicable', async () => {
    const r = await run(`python3 ${JOURNAL}`, [...APPLICABLE, ...NEEDS_CRASH_POINT]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^verdict: conformant/);
    expect(verifyReport(r.report)).toEqual({ ok: true, problems: [] });
    expect(r.report.implementation.name).toBe('ejc-python-journal');
    expect(r.report.implementation.capabilities.crashPoints).toEqual([]);
    const byId = verdicts(r.report);
    for (const id of APPLICABLE) expect(byId[id], id).toBe('passed');
    for (const id of NEEDS_CRASH_POINT) expect(byId[id], id).toBe('not_applicable');
    const reasons = r.report.scenarios.filter((s) => NEEDS_CRASH_POINT.includes(s.id)).map((s) => s.reason);
    for (const reason of reasons) expect(reason).toMatch(/^needs announced crash point /);
    // Real crashes happened and the byte scans read real bytes without finding a planted secret.
    expect(r.report.counts.kills).toBeGreaterThan(0);
    expect(r.report.counts.bytesScanned).toBeGreaterThan(0);
    expect(r.report.counts.canaryHits).toBe(0);
  });

  it('answers reconcile in reconciling mode: tier 1 and tier 2 recover without a duplicate write', async () => {
    const r = await run(`python3 ${JOURNAL} --tier-mode reconciling`, ['cp09.tier1.after-dispatch.reconciling', 'cp09.tier2.receipt-absent.reconciling', 'cp09.tier1.conservative']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(verdicts(r.report)).toEqual({
      'cp09.tier1.after-dispatch.reconciling': 'passed',
      'cp09.tier2.receipt-absent.reconciling': 'passed',
      'cp09.tier1.conservative': 'not_applicable',
    });
    expect(r.report.counts.duplicateWrites).toBe(0);
  });

  it.each([
    ['gate-only-unresolved', 'cp04.after-settle.result-not-retained'],
    ['session-sweeps-unresolved', 'cp10.session.disclose-once'],
  ])('catches the broken copy with --defect %s: %s fails, exit 1', async (defect, scenario) => {
    const r = await run(`python3 ${BROKEN} --defect ${defect}`, [scenario]);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^verdict: nonconformant/);
    expect(r.stdout).toContain(`${scenario}  failed`);
    expect(verdicts(r.report)).toEqual({ [scenario]: 'failed' });
  });
});
