// The world scan: every file modified during a trial that planted argument secrets, wherever a driver can write, is
// searched for them. Real files and real `ejc run`s of journals that leak only where the older scans never looked.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LARGE_SUBTREE, scanWorld, watchMounts, WORLD_SCAN_CLAUSE } from '../../harness/world/world-scan.js';
import { startWorldWatch } from '../../harness/world/world-watch.js';
import { trialNonce, withNonce } from '../../shared/secrets/canary-nonce.js';
import type { Report } from '../../reports/schema.js';
import { ejc } from '../cli/ejc-process.js';
import { pidExists, root } from '../harness/helpers.js';
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
    writeFileSync(join(dir, 'old.log'), canary);
    const since = after([dir, join(dir, 'old.log'), join(dir, 'a'), join(dir, 'a', 'b'), join(dir, 'a', 'b', 'c')]);
    writeFileSync(join(dir, 'leak.log'), `args: ${canary}\n`);
    writeFileSync(join(dir, 'a', 'b', 'c', 'deep.log'), canary); // a new entry makes its directory new too
    writeFileSync(join(dir, 'harness.jsonl'), canary);
    const scan = scanWorld({ sinceMs: since, roots: [dir, join(dir, 'a'), join(dir, 'missing')], exclude: new Set([join(dir, 'harness.jsonl')]), canaries: [canary, 'EJC-CANARY-absentZ'] });
    expect(scan.roots).toEqual([dir, join(dir, 'a')]);
    expect(scan.hits.map((h) => h.file)).toEqual([join(dir, 'a', 'b', 'c', 'deep.log'), join(dir, 'leak.log')]);
    expect(scan.files).toBe(2);
  });

  it('reads an append to an old file deep inside an old directory, except inside a subtree too large to read whole, which it names', () => {
    const dir = mkdtempSync(join(tmp, 'deep-'));
    const canary = 'EJC-CANARY-worldscan2Z';
    // dir/state/app/logs/audit/calls.log: the log's directories are four levels below the root and older than the trial.
    const logs = join(dir, 'state', 'app', 'logs', 'audit');
    mkdirSync(logs, { recursive: true });
    writeFileSync(join(logs, 'calls.log'), 'older lines\n');
    // dir/cache/tools/toolchain: a subtree of LARGE_SUBTREE entries at the fully read depth, its old file appended to alike.
    const large = join(dir, 'cache', 'tools', 'toolchain');
    mkdirSync(join(large, 'deep'), { recursive: true });
    for (let i = 0; i < LARGE_SUBTREE; i++) writeFileSync(join(large, `f${i}`), '');
    writeFileSync(join(large, 'deep', 'calls.log'), 'older lines\n');
    const since = after([join(dir, 'state', 'app', 'logs'), logs, join(logs, 'calls.log'), large, join(large, 'deep'), join(large, 'deep', 'calls.log')]);
    appendFileSync(join(logs, 'calls.log'), `${canary}\n`);
    appendFileSync(join(large, 'deep', 'calls.log'), `${canary}\n`);
    const scan = scanWorld({ sinceMs: since, roots: [dir], exclude: new Set(), canaries: [canary] });
    expect(scan.hits.map((h) => h.file)).toEqual([join(logs, 'calls.log')]);
    expect(scan.gated).toEqual([large]);
  });

  it('reads a file whose mtime (and its directory\'s) was set back after the write: the ctime, which utimes cannot set back, is new', () => {
    const dir = mkdtempSync(join(tmp, 'backdated-'));
    const canary = 'EJC-CANARY-worldscan3Z';
    mkdirSync(join(dir, 'logs'));
    writeFileSync(join(dir, 'logs', 'recovered.log'), 'older lines\n');
    const since = after([dir, join(dir, 'logs'), join(dir, 'logs', 'recovered.log')]);
    appendFileSync(join(dir, 'logs', 'recovered.log'), `${canary}\n`);
    const archived = new Date('2020-01-01T00:00:00Z');
    utimesSync(join(dir, 'logs', 'recovered.log'), archived, archived);
    utimesSync(join(dir, 'logs'), archived, archived);
    const scan = scanWorld({ sinceMs: since, roots: [dir], exclude: new Set(), canaries: [canary] });
    expect(scan.hits.map((h) => h.file)).toEqual([join(dir, 'logs', 'recovered.log')]);
  });
});

// The same findings from the kernel's record of changes (fanotify, harness/world/world-watch.ts), which the scan uses
// when the watch saw the whole trial: no directory is walked, so nothing is gated either.
describe('scanWorld with the world watch', () => {
  let from = 0;
  beforeAll(() => {
    from = startWorldWatch(watchMounts);
  });

  it('finds what the walk finds, a moved directory\'s files, an append inside a large subtree and an odd name included', () => {
    const dir = mkdtempSync(join(tmp, 'watched-'));
    const canary = 'EJC-CANARY-worldwatch1Z';
    const large = join(dir, 'cache', 'tools', 'toolchain');
    mkdirSync(join(large, 'deep'), { recursive: true });
    for (let i = 0; i < LARGE_SUBTREE; i++) writeFileSync(join(large, `f${i}`), '');
    writeFileSync(join(large, 'deep', 'calls.log'), 'older lines\n');
    writeFileSync(join(dir, 'old.log'), canary);
    const since = after([dir, large, join(large, 'deep'), join(large, 'deep', 'calls.log'), join(dir, 'old.log')]);
    appendFileSync(join(large, 'deep', 'calls.log'), `${canary}\n`);
    mkdirSync(join(dir, 'staged'));
    writeFileSync(join(dir, 'staged', 'inner.log'), canary);
    renameSync(join(dir, 'staged'), join(dir, 'placed'));
    writeFileSync(join(dir, 'two\nlines \\ name'), canary);
    writeFileSync(join(dir, 'harness.jsonl'), canary);
    const scan = scanWorld({ sinceMs: since, watchFromMs: Math.max(from, since), roots: [dir], exclude: new Set([join(dir, 'harness.jsonl')]), canaries: [canary] });
    expect(scan.method, 'the watch needs fanotify (root) and cc').toBe('watch');
    expect(scan.hits.map((h) => h.file).sort()).toEqual([join(large, 'deep', 'calls.log'), join(dir, 'placed', 'inner.log'), join(dir, 'two\nlines \\ name')].sort());
    expect(scan.gated).toEqual([]);
    expect(scan.changed).toContain(join(dir, 'placed'));
  });

  it('leaves no helper behind when the harness process that started it is SIGKILLed, and no file', async () => {
    const script = `import { startWorldWatch } from ${JSON.stringify(join(root, 'dist', 'harness', 'world', 'world-watch.js'))};
      import { watchMounts } from ${JSON.stringify(join(root, 'dist', 'harness', 'world', 'world-scan.js'))};
      startWorldWatch(watchMounts); console.log('watching'); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, TMPDIR: tmp } });
    await new Promise<void>((done) => child.stdout.on('data', (d: Buffer) => d.toString().includes('watching') && done()));
    const helpers = (): number[] => readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number).filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1] === String(child.pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('world-watch-');
      } catch {
        return false;
      }
    });
    const helper = helpers();
    expect(helper, 'the helper runs under the harness process').toHaveLength(1);
    // Its report file was unlinked as soon as it was handed over: nothing of it in TMPDIR.
    expect(readdirSync(tmp).filter((n) => n.startsWith('tmp-'))).toEqual([]);
    child.kill('SIGKILL');
    await new Promise((done) => child.once('exit', done));
    // PR_SET_PDEATHSIG: the kernel kills it as its parent dies; wait for the condition, not the clock.
    while (pidExists(helper[0]!) && !readFileSync(`/proc/${helper[0]}/stat`, 'utf8').includes(') Z ')) await new Promise((r) => setTimeout(r, 20));
  });

  it('reads a file whose mtime was set back after the write, and walks instead for a trial that began before the watch', () => {
    const dir = mkdtempSync(join(tmp, 'watched-backdated-'));
    const canary = 'EJC-CANARY-worldwatch2Z';
    writeFileSync(join(dir, 'recovered.log'), 'older lines\n');
    const since = after([dir, join(dir, 'recovered.log')]);
    appendFileSync(join(dir, 'recovered.log'), `${canary}\n`);
    const archived = new Date('2020-01-01T00:00:00Z');
    utimesSync(join(dir, 'recovered.log'), archived, archived);
    const watched = scanWorld({ sinceMs: since, watchFromMs: Math.max(from, since), roots: [dir], exclude: new Set(), canaries: [canary] });
    expect([watched.method, watched.hits.map((h) => h.file)]).toEqual(['watch', [join(dir, 'recovered.log')]]);
    const earlier = scanWorld({ sinceMs: since, watchFromMs: from - 1, roots: [dir], exclude: new Set(), canaries: [canary] });
    expect([earlier.method, earlier.hits.map((h) => h.file)]).toEqual(['walk', [join(dir, 'recovered.log')]]);
  });
});

/**
 * A trial start later than every change to `paths` (their mtimes and ctimes), so files made before it are older than the
 * trial (no test can make a ctime old). The kernel stamps files from a clock that may lag Date.now() by a tick, so the
 * start lies halfway into a wait of LAG_MS: what the test writes next is stamped after it. Waits for the clock only.
 */
function after(paths: readonly string[]): number {
  const latest = Math.max(...paths.map((p) => Math.max(statSync(p).mtimeMs, statSync(p).ctimeMs)));
  while (Date.now() < latest + LAG_MS) {
    // The clock passes the last change within a few milliseconds.
  }
  return latest + LAG_MS / 2;
}
const LAG_MS = 40;

describe('another harness\'s trials', () => {
  it('are read like any directory: its canaries are not this trial\'s, so nothing there can be blamed on this trial by mistake', () => {
    const root = mkdtempSync(join(tmp, 'others-'));
    const since = Date.now() - 1000;
    const [mine, theirs] = [trialNonce(), trialNonce()].map((n) => withNonce('EJC-CANARY-0.seeded1Z', n));
    mkdirSync(join(root, 'other-harness-trial'));
    writeFileSync(join(root, 'other-harness-trial', 'leak.log'), theirs!);
    expect(scanWorld({ sinceMs: since, roots: [root], exclude: new Set(), canaries: [mine!] }).hits).toEqual([]);
    expect(scanWorld({ sinceMs: since, roots: [root], exclude: new Set(), canaries: [theirs!] }).hits.map((h) => h.file)).toEqual([join(root, 'other-harness-trial', 'leak.log')]);
  });
});

describe('journals that leak arguments outside their directory', () => {
  async function run(args: string[]): Promise<{ exitCode: number; report: Report; tag: string }> {
    const tag = newTag('world-scan');
    // The default seed, as every other test: canaries are unique to their trial, so what these journals leak cannot
    // land in the world scan of a clean journal's trial of the same seed running in another test file at the same time.
    const r = await ejc([...args, '--json'], { env: { [TAG_VAR]: tag, TMPDIR: tmp } });
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
