// A kill is proven: the whole tree is found (group, session, mark, parentage), killed at once and shown gone, and any
// process still holding the journal's files is named. Real processes throughout; each test finds its own by EJC_TEST_TAG.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { confinement } from '../../shared/confinement.js';
import { startDriver } from '../../harness/driver/index.js';
import { provenSurvivors, treeOf } from '../../harness/driver/process-tree.js';
import type { ProcEntry } from '../../harness/driver/proc-scan.js';
import { createTrialDir, type TrialDir } from '../../harness/trial-dir.js';
import { externalExclusion } from '../../reports/boundary.js';
import { inconclusiveCause, trialVerdict } from '../../reports/derive.js';
import { computeOutcomeDigest, sealReport } from '../../reports/seal.js';
import { verifyReport } from '../../reports/verify.js';
import { buildReport, clone, scenario, trial } from '../reports/fixture.js';
import { DriverPool, fakeLaunch, fixtures, root } from './helpers.js';
import { killOwn, newTag, ownProcesses, TAG_VAR } from './own-processes.js';

const pool = new DriverPool();
const confined = confinement() === 'pid-namespace';
let dir: TrialDir;
let tag: string;
beforeEach(async () => {
  dir = await createTrialDir();
  tag = newTag('kill-proof');
});
afterEach(async () => {
  await pool.killAll();
  await dir.cleanup();
  expect(await killOwn(tag)).toEqual([]);
});

const grandchildLaunch = { kind: 'module' as const, module: join(fixtures, 'adapters', 'tiny-with-grandchild.mjs'), options: {} };
const opts = () => ({ label: 'primary', cwd: root, timeoutMs: 60_000, env: { [TAG_VAR]: tag } });

describe('the tree of a driver', () => {
  it('is its group and session, the carriers of its mark, and their descendants by parentage', () => {
    const p = (pid: number, ppid: number, pgrp: number, sid: number, mark: string | null = null, state = 'S', pidns: number | null = null): ProcEntry => ({ pid, ppid, pgrp, sid, state, start: pid, mark, pidns });
    const table = [
      p(100, 1, 100, 100, 'm'), // the leader
      p(101, 100, 100, 100, 'm'), // a child in its group
      p(102, 100, 102, 100), // moved to another group, same session, environment cleared
      p(103, 1, 103, 103, 'm'), // setsid + double fork: found by the mark alone
      p(104, 103, 104, 104), // its child with a cleared environment: found through its parent
      p(105, 104, 105, 105), // and that one's child
      p(106, 1, 106, 106, 'other'), // another driver
      p(107, 100, 100, 100, 'm', 'Z'), // a zombie is dead
      p(108, 1, 108, 108), // unrelated
    ];
    expect(treeOf({ pgid: 100, mark: 'm' }, table).map((e) => e.pid)).toEqual([100, 101, 102, 103, 104, 105]);
  });

  it('is never a process that got the leader\'s pid, group or session number after the driver was gone (pids wrap)', () => {
    const p = (pid: number, ppid: number, pgrp: number, sid: number, start: number, mark: string | null = null): ProcEntry => ({ pid, ppid, pgrp, sid, state: 'S', start, mark, pidns: null });
    // The leader (pid 300, started at tick 50) and its group are gone; pid 300 is now another program's, leading a group.
    const reused = [
      p(300, 1, 300, 300, 900), // the number reused: another start time
      p(301, 300, 300, 300, 901), // that program's child, in its group
      p(302, 1, 302, 302, 60, 'm'), // a driver's process that kept the mark: still the driver's
    ];
    expect(treeOf({ pgid: 300, mark: 'm', since: 50 }, reused).map((e) => e.pid)).toEqual([302]);
    // While the leader lives (same start), its group is the driver's; a process older than the leader never is.
    const live = [p(300, 1, 300, 300, 50), p(301, 300, 300, 300, 51), p(305, 1, 305, 300, 40)];
    expect(treeOf({ pgid: 300, mark: 'm', since: 50 }, live).map((e) => e.pid)).toEqual([300, 301]);
    // The leader gone but not reused: a member that cleared its environment still is (the group's number is held).
    expect(treeOf({ pgid: 300, mark: 'm', since: 50 }, [p(301, 1, 300, 300, 51)]).map((e) => e.pid)).toEqual([301]);
  });

  it('is, when confined, every process of the PID namespace its init (a group member) lives in, however it left', () => {
    const p = (pid: number, ppid: number, pgrp: number, sid: number, mark: string | null, pidns: number | null): ProcEntry => ({ pid, ppid, pgrp, sid, state: 'S', start: pid, mark, pidns });
    const table = [
      p(200, 1, 200, 200, 'm', null), // unshare: the group and session leader, in the harness's namespace
      p(201, 200, 200, 200, 'm', 7), // the driver, init of namespace 7
      p(202, 1, 202, 202, null, 7), // double-forked, setsid, cleared environment: found by its namespace alone
      p(203, 1, 203, 203, null, 8), // another driver's namespace
      p(204, 1, 204, 204, null, null), // unrelated
    ];
    expect(treeOf({ pgid: 200, mark: 'm' }, table).map((e) => e.pid)).toEqual([200, 201, 202]);
  });
});

describe('killing a driver whose grandchild left its session', () => {
  it('kills the grandchild with it and records it as escaped; nothing of the tree is left', async () => {
    const driver = pool.track(await startDriver(grandchildLaunch, opts()));
    const sleeper = ownProcesses(tag).find((o) => o.cmdline === 'sleep 3600')!;
    expect(sleeper.sid).not.toBe(driver.pid);
    const exit = await driver.kill();
    expect(exit.signal).toBe('SIGKILL');
    expect(exit.tree.processes).toBe(2);
    expect(exit.tree.survivors).toEqual([]);
    expect(exit.tree.escaped).toEqual([{ pid: sleeper.pid, session: sleeper.sid, group: sleeper.pgrp, cmdline: 'sleep 3600', holds: [] }]);
    // Proven when kill() resolves, not eventually.
    expect(ownProcesses(tag)).toEqual([]);
  });

  it('ends the grandchild at a graceful close too', async () => {
    const driver = pool.track(await startDriver(grandchildLaunch, opts()));
    const exit = await driver.close();
    // Confined, the kernel ended the namespace with its init before the harness looked: nothing was left to kill.
    expect(exit).toMatchObject({ signal: null, exitCode: 0, killedByHarness: false, tree: { processes: confined ? 0 : 1, survivors: [] } });
    expect(exit.tree.escaped.map((e) => e.cmdline)).toEqual(confined ? [] : ['sleep 3600']);
    expect(ownProcesses(tag)).toEqual([]);
  });

  it('ends what a driver that exits by itself left behind', async () => {
    const driver = pool.track(await startDriver(fakeLaunch('exit-mid-call', 'setsid sleep 3600 </dev/null >/dev/null 2>&1 & '), opts()));
    await until(() => ownProcesses(tag).some((o) => o.cmdline === 'sleep 3600'));
    await expect(driver.call('checkpoint', {})).rejects.toMatchObject({ code: 'driver_exited' });
    const exit = await driver.exited;
    expect(exit).toMatchObject({ exitCode: 7, killedByHarness: false, tree: { processes: confined ? 0 : 1, survivors: [] } });
    expect(exit.tree.escaped.map((e) => e.cmdline)).toEqual(confined ? [] : ['sleep 3600']);
    expect(ownProcesses(tag)).toEqual([]);
  });
});

describe('the proof after a kill', () => {
  it('names a process outside the tree that holds the journal files, then kills it', async () => {
    const journal = join(dir.path, 'journal');
    mkdirSync(journal);
    const driver = pool.track(await startDriver({ kind: 'module', module: join(fixtures, 'adapters', 'tiny-journal.mjs'), options: {} }, opts()));
    await driver.call('open', { dir: journal, armedCrashPoints: [] });
    // Confined, a process the driver started lives in some PID namespace of its own making; one in the harness's
    // namespace was not started by it. Unconfined, any holder started since the harness may be the driver's.
    const holder = confined ? await holdFileInNamespace(join(journal, 'held.db')) : holdFile(join(journal, 'held.db'));
    await until(() => ownProcesses(tag).some((o) => o.pid === holder.pid && o.cmdline.startsWith('sleep')));
    const exit = await driver.kill();
    expect(exit.tree.survivors).toEqual([expect.objectContaining({ pid: holder.pid, cmdline: 'sleep 3600', holds: [join(journal, 'held.db')] })]);
    await until(() => !ownProcesses(tag).some((o) => o.cmdline.startsWith('sleep')));
  });

  it.runIf(confined)('neither blames nor kills a process of the harness namespace reading the files (another harness scanning them)', async () => {
    const journal = join(dir.path, 'journal');
    mkdirSync(journal);
    const driver = pool.track(await startDriver({ kind: 'module', module: join(fixtures, 'adapters', 'tiny-journal.mjs'), options: {} }, opts()));
    await driver.call('open', { dir: journal, armedCrashPoints: [] });
    const reader = holdFile(join(journal, 'read-by-another-harness.db'));
    await until(() => ownProcesses(tag).some((o) => o.pid === reader.pid && o.cmdline.startsWith('sleep')));
    const exit = await driver.kill();
    expect(exit.tree.survivors).toEqual([]);
    expect(exit.tree.escaped).toEqual([]);
    expect(ownProcesses(tag).map((o) => o.pid)).toEqual([reader.pid]);
    expect((await killOwn(tag)).map((o) => o.pid)).toEqual([reader.pid]);
  });

  it('leaves a declared external server alone, and names it in the claim boundary instead', async () => {
    const journal = join(dir.path, 'journal');
    mkdirSync(journal);
    const holder = holdFile(join(journal, 'server.db'));
    await until(() => ownProcesses(tag).some((o) => o.pid === holder.pid && o.cmdline.startsWith('sleep')));
    // A root whose processes are all gone: only the holder remains to be judged.
    const root0 = { pgid: 2 ** 22 + 7, mark: 'no-such-driver' };
    expect(provenSurvivors(root0, [journal], { others: [], externalState: null }).holders.map((h) => h.proc.pid)).toEqual([holder.pid]);
    expect(provenSurvivors(root0, [journal], { others: [], externalState: 'pg at localhost' }).holders).toEqual([]);
    // Another live driver's process holding the same files is not a survivor either.
    const asOther = { pgid: holder.pid, mark: 'x' };
    expect(provenSurvivors(root0, [journal], { others: [asOther], externalState: null }).holders).toEqual([]);

    const report = clone(buildReport());
    report.implementation.capabilities.externalState = 'pg at localhost';
    expect(verifyReport(sealReport(report)).problems.join('\n')).toContain('$.boundary');
    report.boundary.excludes.push(externalExclusion('pg at localhost'));
    expect(verifyReport(sealReport(report)).problems).toEqual([]);
    // The server is the test's own: it ends it.
    expect((await killOwn(tag)).map((o) => o.pid)).toEqual([holder.pid]);
  });
});

describe('kill evidence in the report', () => {
  it('keeps pids out of the outcome digest but not whether something escaped or survived', () => {
    const withTree = (pid: number, escaped: number) => {
      const proc = { pid, session: pid, group: pid, cmdline: 'sleep 3600', holds: [] };
      const kill = { planned: 'boundary:after-settle', point: 'boundary:after-settle', seq: 7, signal: 'SIGKILL', driver: 'd1', tree: { processes: 2 + pid % 3, escaped: Array(escaped).fill(proc), survivors: [] } };
      return buildReport([scenario('cp02.after-prepare', [trial('t1', { kills: [kill] })])]);
    };
    expect(verifyReport(withTree(4242, 1)).problems).toEqual([]);
    expect(computeOutcomeDigest(withTree(4242, 1))).toBe(computeOutcomeDigest(withTree(5151, 1)));
    expect(computeOutcomeDigest(withTree(4242, 1))).not.toBe(computeOutcomeDigest(withTree(4242, 0)));
  });

  it('never lets a trial whose kill left a survivor pass, even if nothing else says so', () => {
    const survivor = { pid: 77, session: 77, group: 77, cmdline: 'node server.mjs', holds: ['<trial>/journal/effects.db'] };
    const kill = { planned: 'boundary:after-prepare', point: 'boundary:after-prepare', seq: 5, signal: 'SIGKILL', driver: 'primary#1', tree: { processes: 1, escaped: [], survivors: [survivor] } };
    const evidence = { ...trial('t1'), kills: [kill], inconclusiveReason: null };
    expect(trialVerdict(evidence)).toBe('inconclusive');
    expect(inconclusiveCause(evidence)).toBe("the kill at boundary:after-prepare left 1 process(es) running or holding the journal's files");
    expect(trialVerdict({ ...evidence, kills: [{ ...kill, tree: { ...kill.tree, survivors: [] } }] })).toBe('passed');
  });
});

/** A process of this test, outside any driver (own session, no driver mark), holding `file` open. */
function holdFile(file: string): { pid: number } {
  const child = spawn('/bin/sh', ['-c', `exec 3>>"${file}"; exec sleep 3600`], {
    detached: true, stdio: 'ignore', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', [TAG_VAR]: tag },
  });
  child.unref();
  return { pid: child.pid! };
}

// A holder in a PID namespace other than the harness's, as a confined driver's escaped helper would be: its sleep's pid.
async function holdFileInNamespace(file: string): Promise<{ pid: number }> {
  const child = spawn('unshare', ['--pid', '--fork', '--kill-child', '--', '/bin/sh', '-c', `exec 3>>"${file}"; exec sleep 3600`], {
    detached: true, stdio: 'ignore', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', [TAG_VAR]: tag },
  });
  child.unref();
  let pid = 0;
  await until(() => {
    pid = ownProcesses(tag).find((o) => o.cmdline.startsWith('sleep'))?.pid ?? 0;
    return pid !== 0;
  });
  return { pid };
}

async function until(condition: () => boolean, maxMs = 120_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
