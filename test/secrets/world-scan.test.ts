// The world scan: every file modified during a trial that planted argument secrets, wherever a driver can write, is
// searched for them. Real files and real `ejc run`s of journals that leak only where the older scans never looked.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanWorld, worldBaseline, WORLD_SCAN_CLAUSE } from '../../harness/world/world-scan.js';
import { OWNER_FILE } from '../../harness/world/trial-owner.js';
import { readProc } from '../../harness/driver/proc-scan.js';
import { spawn } from 'node:child_process';
import type { Report } from '../../reports/schema.js';
import { ejc } from '../cli/ejc-process.js';
import { root } from '../harness/helpers.js';
import { killOwn, newTag, TAG_VAR } from '../harness/own-processes.js';

const HOSTILE = join(root, 'test', 'broken', 'hostile');
const ON_DISK = 'secrets.args-never-on-disk';
const WRITTEN = 'secrets.args-never-in-written-files';
let tmp: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'ejc-world-scan-test-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('scanWorld', () => {
  it('reads files modified since the trial began, skips older ones and the excluded exact paths, and walks nested roots once', () => {
    const dir = mkdtempSync(join(tmp, 'scan-'));
    const canary = 'EJC-CANARY-worldscan1Z';
    mkdirSync(join(dir, 'a', 'b', 'c'), { recursive: true });
    const since = Date.now() - 1000;
    writeFileSync(join(dir, 'leak.log'), `args: ${canary}\n`);
    writeFileSync(join(dir, 'a', 'b', 'c', 'deep.log'), canary); // a new entry makes its directory new too
    writeFileSync(join(dir, 'harness.jsonl'), canary);
    writeFileSync(join(dir, 'old.log'), canary);
    utimesSync(join(dir, 'old.log'), new Date(since - 60_000), new Date(since - 60_000));
    const scan = scanWorld({ sinceMs: since, roots: [dir, join(dir, 'a'), join(dir, 'missing')], exclude: new Set([join(dir, 'harness.jsonl')]), canaries: [canary, 'EJC-CANARY-absentZ'] });
    expect(scan.roots).toEqual([dir, join(dir, 'a')]);
    expect(scan.hits.map((h) => h.file)).toEqual([join(dir, 'a', 'b', 'c', 'deep.log'), join(dir, 'leak.log')]);
    expect(scan.files).toBe(2);
  });

  it('does not blame a trial for a file unchanged since its first secret (an earlier run of the same seed), but does for one rewritten after', () => {
    const dir = mkdtempSync(join(tmp, 'baseline-'));
    const canary = 'EJC-CANARY-worldscan2Z';
    const since = Date.now() - 1000;
    writeFileSync(join(dir, 'earlier-run.log'), canary);
    writeFileSync(join(dir, 'rewritten.log'), canary);
    const baseline = worldBaseline(since, [dir]);
    expect([...baseline.keys()].sort()).toEqual([join(dir, 'earlier-run.log'), join(dir, 'rewritten.log')]);
    writeFileSync(join(dir, 'rewritten.log'), `${canary} again`);
    writeFileSync(join(dir, 'new.log'), canary);
    const scan = scanWorld({ sinceMs: since, roots: [dir], exclude: new Set(), canaries: [canary], unchangedSince: baseline });
    expect(scan.hits.map((h) => h.file)).toEqual([join(dir, 'new.log'), join(dir, 'rewritten.log')]);
  });
});

describe('trials of another running harness', () => {
  it('are left to that harness; a marker naming this process, its own child, a dead pid or a reused pid is read as usual', async () => {
    const root = mkdtempSync(join(tmp, 'owners-'));
    const canary = 'EJC-CANARY-worldscan3Z';
    const since = Date.now() - 1000;
    // pid 1 stands in for another harness: alive, never started by this process.
    const init = readProc(1)!;
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const own = readProc(child.pid!)!;
      const markers: Record<string, string> = {
        other: `1 ${init.start}\n`,
        self: `${process.pid} ${readProc(process.pid)!.start}\n`,
        forged: `${child.pid} ${own.start}\n`,
        reused: `1 ${init.start + 1}\n`,
        garbage: 'not a marker',
      };
      for (const [name, marker] of Object.entries(markers)) {
        mkdirSync(join(root, name));
        writeFileSync(join(root, name, OWNER_FILE), marker);
        writeFileSync(join(root, name, 'leak.log'), canary);
      }
      const scan = scanWorld({ sinceMs: since, roots: [root], exclude: new Set(), canaries: [canary] });
      expect(scan.hits.map((h) => h.file.slice(root.length + 1))).toEqual(['forged/leak.log', 'garbage/leak.log', 'reused/leak.log', 'self/leak.log']);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('journals that leak arguments outside their directory', () => {
  async function run(args: string[]): Promise<{ exitCode: number; report: Report; tag: string }> {
    const tag = newTag('world-scan');
    // A seed no other test uses: the canaries these leaking journals write are this file's alone, so they cannot land
    // in the world scan of a clean journal's trial of the same seed running in another test file at the same time.
    const r = await ejc([...args, '--seed', '7919', '--json'], { env: { [TAG_VAR]: tag, TMPDIR: tmp } });
    expect(await killOwn(tag)).toEqual([]);
    return { exitCode: r.exitCode, report: JSON.parse(r.stdout) as Report, tag };
  }
  const worldFinding = (report: Report, id: string): unknown => report.scenarios.find((s) => s.id === id)!.trials[0]!.assertions.find((a) => a.name === WORLD_SCAN_CLAUSE);

  it('one logging recovered calls to /tmp only after a restart: the uncrashed trace sees nothing, the world scan after the crash trial fails it', async () => {
    const { exitCode, report, tag } = await run(['run', '--impl', join(HOSTILE, 'recovery-logger.mjs'), '--scenario', ON_DISK, '--scenario', WRITTEN]);
    const logs = readdirSync('/tmp').filter((f) => f.startsWith(`hostile-recovery-${tag}-`));
    for (const f of logs) rmSync(join('/tmp', f));
    expect(logs).toHaveLength(1);
    expect([exitCode, report.verdict]).toEqual([1, 'nonconformant']);
    expect(Object.fromEntries(report.scenarios.map((s) => [s.id, s.verdict]))).toEqual({ [ON_DISK]: 'failed', [WRITTEN]: 'passed' });
    const finding = worldFinding(report, ON_DISK) as { passed: boolean; actual: string[]; observed: { roots: string[] } };
    expect(finding.passed).toBe(false);
    expect(finding.actual.length).toBeGreaterThan(0);
    for (const hit of finding.actual) expect(hit).toMatch(new RegExp(`hostile-recovery-${tag}-[0-9a-f]{16}\\.log: \\[masked canary:[0-9a-f]{12}\\]$`));
    // The evidence names where it looked: the temporary directories and this test's TMPDIR among them.
    expect(finding.observed.roots).toEqual(expect.arrayContaining(['/tmp', '/var/tmp']));
    expect(JSON.stringify(report)).not.toMatch(/EJC-CANARY-/);
  });

  it('one whose forked helper appends every call to a file in TMPDIR: the world scan fails both secrets scenarios', async () => {
    const { exitCode, report } = await run(['run', '--impl', join(HOSTILE, 'helper-logger.mjs'), '--scenario', ON_DISK, '--scenario', WRITTEN]);
    expect([exitCode, report.verdict]).toEqual([1, 'nonconformant']);
    expect(Object.fromEntries(report.scenarios.map((s) => [s.id, s.verdict]))).toEqual({ [ON_DISK]: 'failed', [WRITTEN]: 'failed' });
    for (const id of [ON_DISK, WRITTEN]) {
      const hits = (worldFinding(report, id) as { actual: string[] }).actual;
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.every((h) => /^<tmpdir>\/hostile-helper-.*\.log: \[masked canary:[0-9a-f]{12}\]$/.test(h))).toBe(true);
    }
  });

  it('the same helper in one generated trial: the explore trial fails the secrets clause on the world scan', async () => {
    const { exitCode, report } = await run(['explore', '--impl', join(HOSTILE, 'helper-logger.mjs'), '--trials', '1', '--max-shrinks', '0']);
    expect([exitCode, report.verdict]).toEqual([1, 'nonconformant']);
    expect(report.scenarios[0]!.reason).toMatch(/secrets\.args: a planted argument secret is in a file written during the trial outside the journal directory and the harness's own files/);
  });
});
