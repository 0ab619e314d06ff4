// The harness's own faults are never the journal's: trial directories removed under a running `ejc run` (as a cleaner of
// the shared temp directory would) make those trials inconclusive with the cause named; the run never exits 1, goes on,
// and writes its report; kept directories live under --out.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { dir } from 'tmp-promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ejc, type EjcResult } from './ejc-process.js';
import type { Report } from '../../reports/schema.js';

const SCENARIOS = ['cp02.after-prepare.tier3', 'cp03.after-dispatch.tier3', 'cp04.after-settle', 'cp06.two-effects.kill-between', 'identity.scope-exact', 'cp10.session.disclose-once'];

let tmp: { path: string; cleanup: () => Promise<void> };
let run: EjcResult;
let report: Report;
let removed = 0;

beforeAll(async () => {
  tmp = await dir({ unsafeCleanup: true });
  const tmpdir = join(tmp.path, 'tmp');
  const out = join(tmp.path, 'out');
  const kept = join(out, 'kept');
  // The cleaner: every trial directory (named tmp-<pid>-<random>, like any temporary directory) that appears (in TMPDIR, or under --out/kept with --keep-failed) goes at once.
  const cleaner = setInterval(() => {
    for (const parent of [tmpdir, kept]) {
      let names: string[] = [];
      try {
        names = readdirSync(parent).filter((n) => n.startsWith('tmp-'));
      } catch {
        continue;
      }
      for (const name of names) {
        try {
          rmSync(join(parent, name), { recursive: true, force: true });
          removed += 1;
        } catch {
          // A journal still writing there refills a directory being emptied (ENOTEMPTY): the next tick tries again.
        }
      }
    }
  }, 20);
  mkdirSync(tmpdir);
  try {
    run = await ejc(['run', ...SCENARIOS.flatMap((s) => ['--scenario', s]), '--keep-failed', '--jobs', '1', '--out', out], { env: { TMPDIR: tmpdir } });
  } finally {
    clearInterval(cleaner);
  }
  report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
}, 600_000);

afterAll(async () => {
  await tmp?.cleanup();
});

describe('trial directories removed under a run', () => {
  it('the cleaner really removed trial directories', () => {
    expect(removed).toBeGreaterThan(0);
  });

  it('never exits 1 and always writes its report, with every scenario run', () => {
    expect(run.exitCode, run.stderr).not.toBe(1);
    expect(run.exitCode, run.stderr).not.toBe(3);
    expect(report.scenarios.map((s) => s.id).sort()).toEqual([...SCENARIOS].sort());
  });

  it('blames no trial on the journal, and names the harness fault for each one it could not judge', () => {
    expect(report.scenarios.filter((s) => s.verdict === 'failed').map((s) => `${s.id}: ${s.reason}`)).toEqual([]);
    const inconclusive = report.scenarios.filter((s) => s.verdict === 'inconclusive');
    expect(inconclusive.length).toBeGreaterThan(0);
    for (const s of inconclusive) expect(s.trials[0]?.inconclusiveReason ?? '').toMatch(/^harness fault: /);
  });

  it('makes trial directories under --out when they may be kept, not in the shared temp directory', async () => {
    const out = await dir({ unsafeCleanup: true });
    try {
      const kept = await ejc(['run', '--scenario', 'cp04.after-settle', '--keep', '--out', out.path]);
      expect(kept.exitCode, kept.stderr).toBe(0);
      const dirs = readdirSync(join(out.path, 'kept'));
      expect(dirs).toHaveLength(1);
      expect(existsSync(join(out.path, 'kept', dirs[0]!, 'journal'))).toBe(true);
    } finally {
      await out.cleanup();
    }
  }, 300_000);
});
