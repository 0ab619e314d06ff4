// ejc explore end to end: clean on the reference (both tier modes), independent of --jobs and --shard, and a realistic
// bug found, shrunk and replayed by the one command the report prints (which fails again).
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dir } from 'tmp-promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../reports/schema.js';
import { verifyReport } from '../../reports/verify.js';
import { ejc } from '../cli/ejc-process.js';

const REFERENCE_ADAPTER = fileURLToPath(new URL('../../dist/reference-impl/adapter.js', import.meta.url));
const ARRAYS = fileURLToPath(new URL('../broken/realistic/redaction-skips-arrays.mjs', import.meta.url));

let tmp: { path: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  tmp = await dir({ unsafeCleanup: true });
});
afterAll(async () => {
  await tmp.cleanup();
});

async function explore(name: string, args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string; report: Report }> {
  const out = join(tmp.path, name);
  const r = await ejc(['explore', ...args, '--out', out]);
  const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
  return { ...r, report };
}

describe('ejc explore', () => {
  it('is clean on the reference journal, and the same trials whatever --jobs and --shard', async () => {
    const whole = await explore('whole', ['--trials', '4', '--jobs', '2', '--seed', '5']);
    expect(whole.exitCode, whole.stderr).toBe(0);
    expect(whole.stdout).toMatch(/^verdict: conformant/);
    expect(verifyReport(whole.report)).toEqual({ ok: true, problems: [] });
    // Verify binds an exploration's commands too: a trial whose command replays no counterexample is named.
    const unbound = { ...whole.report, scenarios: whole.report.scenarios.map((s, i) => (i === 0 ? { ...s, reproduce: 'npx ejc explore --trials 3' } : s)) };
    expect(verifyReport(unbound).problems).toContain('$.scenarios[0].reproduce: does not replay one counterexample (--replay <seed>:<path>)');
    // verify --rerun re-runs fixed-matrix reports; for an exploration it names the commands that reproduce it instead.
    const rerun = await ejc(['verify', '--rerun', join(tmp.path, 'whole', 'report.json')]);
    expect(rerun.exitCode).toBe(3);
    expect(rerun.stderr).toContain('this is an ejc explore report. Explore again from its seed with: npx ejc explore');
    expect(whole.report.counts.trials).toBe(4);
    expect(whole.report.counts.kills).toBeGreaterThan(0);
    expect(whole.report.counts.bytesScanned).toBeGreaterThan(0);
    // Every trial checked real observations against the model, not just ran.
    for (const s of whole.report.scenarios) {
      const seen = s.trials[0]!.assertions.map((a) => (a.observed as { observations?: number } | undefined)?.observations ?? 0);
      expect(seen.reduce((x, y) => x + y, 0)).toBeGreaterThan(5);
    }
    const shards = await Promise.all([1, 2].map((i) => explore(`shard-${i}`, ['--trials', '4', '--jobs', '1', '--seed', '5', '--shard', `${i}/2`])));
    for (const s of shards) expect(s.exitCode, s.stderr).toBe(0);
    const merged = await ejc(['merge', join(tmp.path, 'shard-1', 'report.json'), join(tmp.path, 'shard-2', 'report.json'), '--out', join(tmp.path, 'merged')]);
    expect(merged.exitCode, merged.stderr).toBe(0);
    const report = JSON.parse(await readFile(join(tmp.path, 'merged', 'report.json'), 'utf8')) as Report;
    expect(report.outcomeDigest).toBe(whole.report.outcomeDigest);
  });

  it('is clean on the reference journal in conservative tier mode', async () => {
    const r = await explore('conservative', ['--impl', REFERENCE_ADAPTER, '--impl-option', 'tierMode=conservative', '--trials', '2', '--seed', '9']);
    expect(r.exitCode, r.stdout).toBe(0);
    expect(r.report.implementation.capabilities.tierMode).toBe('conservative');
  });

  it('finds a realistic bug, shrinks it, and its replay command fails again', async () => {
    const r = await explore('arrays', ['--impl', ARRAYS, '--trials', '8', '--jobs', '2', '--max-shrinks', '6']);
    expect(r.exitCode, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/counterexample \(explore\.trial-\d+\.shrunk/);
    expect(r.stdout).toContain('digest.same-call');
    const section = r.report.sections['explore'] as Record<string, { counterexample?: { replay: string; steps: unknown[] }; replayFailedAgain?: boolean }>;
    const shrunk = Object.entries(section).find(([id]) => id.endsWith('.shrunk'))?.[1];
    expect(shrunk?.replayFailedAgain).toBe(true);
    expect(shrunk?.counterexample?.steps.length).toBeGreaterThan(0);
    // The report never holds a planted secret: canaries only by id.
    expect(verifyReport(r.report)).toEqual({ ok: true, problems: [] });
    const command = shrunk!.counterexample!.replay;
    expect(command).toMatch(/^npx ejc explore --impl \S+ --replay \d+:[\d:]+ --machine \S+$/);
    const replay = await ejc(command.replace(/^npx ejc /, '').split(' '));
    expect(replay.exitCode, replay.stdout).toBe(1);
    expect(replay.stdout).toContain('digest.same-call');
  });

  it('keeps trial directories under <out>/kept with --keep, as run does, never in the shared temp directory', async () => {
    const temp = join(tmp.path, 'shared-temp');
    await mkdir(temp);
    const out = join(tmp.path, 'kept-out');
    const r = await ejc(['explore', '--trials', '2', '--seed', '5', '--jobs', '1', '--keep', '--out', out], { env: { TMPDIR: temp } });
    expect(r.exitCode, r.stderr).toBe(0);
    const kept = await readdir(join(out, 'kept'));
    expect(kept).toHaveLength(2);
    for (const name of kept) expect(existsSync(join(out, 'kept', name, 'journal')), name).toBe(true);
    const announced = [...r.stderr.matchAll(/kept the trial directory (\S+)/g)].map((m) => m[1]!);
    expect(announced.sort()).toEqual(kept.map((name) => join(out, 'kept', name)).sort());
    // Nothing of a trial was left in the temp directory the machine's cleaners share.
    const left = (await readdir(temp)).filter((name) => existsSync(join(temp, name, 'journal')));
    expect(left).toEqual([]);
  });

  it('names what is wrong with its flags', async () => {
    expect((await ejc(['explore', '--budget', 'soon'])).stderr).toMatch(/--budget must be a duration like 60s/);
    expect((await ejc(['explore', '--replay', 'x'])).stderr).toMatch(/--replay must be <seed>:<path>/);
    expect((await ejc(['explore', '--replay', '1:0', '--trials', '3'])).stderr).toMatch(/--replay runs exactly one counterexample/);
    expect((await ejc(['explore', '--machine', 'strace'])).exitCode).toBe(3);
  });
});
