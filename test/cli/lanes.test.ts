// Lane processes (the compiled CLI at --jobs > 1) change nothing a report says, and leave nothing behind when the run is stopped.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../reports/schema.js';
import { listScenarios } from '../../scenarios/catalog.js';
import { killOwn, newTag, ownProcesses, TAG_VAR } from '../harness/own-processes.js';
import { EJC, ejc } from './ejc-process.js';

// The scenarios of test/conformance/jobs.test.ts: quick crash scenarios of several families, one with a report section.
const SCENARIOS = ['s8e.batch', 'cp04.after-settle', 'cp07.concurrent-prepare.race', 'cp10.session.disclose-once', 'kxm.recovery.receipt-found', 'secrets.args-never-on-disk'];

describe('lane processes', () => {
  it('give the same outcome digest, scenario order and sections at --jobs 1 (one process) and --jobs 3 (three lanes)', async () => {
    const args = ['run', ...SCENARIOS.flatMap((s) => ['--scenario', s]), '--seed', '3', '--json'];
    const one = await ejc([...args, '--jobs', '1']);
    const three = await ejc([...args, '--jobs', '3']);
    expect(one.exitCode, one.stderr).toBe(0);
    expect(three.exitCode, three.stderr).toBe(0);
    const a = JSON.parse(one.stdout) as Report;
    const b = JSON.parse(three.stdout) as Report;
    expect(a.counts.kills).toBeGreaterThan(0);
    expect(b.outcomeDigest).toBe(a.outcomeDigest);
    const catalogOrder = listScenarios().map((s) => s.id).filter((id) => SCENARIOS.includes(id));
    expect(b.scenarios.map((s) => s.id)).toEqual(catalogOrder);
    expect(Object.keys(a.sections)).not.toEqual([]);
    expect(JSON.stringify(b.sections)).toBe(JSON.stringify(a.sections));
  });

  it('SIGTERM of a run at --jobs 2 ends every lane and driver and removes the trial directories before it exits 143', async () => {
    const tag = newTag('lanes-sigterm');
    // A directory of the test's own as TMPDIR: every trial directory of the run is made in it, and none of anyone else's.
    const tmp = await mkdtemp(join(tmpdir(), 'ejc-lanes-test-'));
    const run = spawn(process.execPath, [EJC, 'run', '--scenario', 'explore.mixed', '--scenario', 'explore.runs', '--jobs', '2'], {
      env: { ...process.env, CI: 'true', TMPDIR: tmp, [TAG_VAR]: tag },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => run.once('exit', (code) => resolve(code)));
    try {
      // Both lanes are under way: the run, two lanes and a driver (with its wrapper) of each.
      await until(() => ownProcesses(tag).filter((p) => p.cmdline.includes('host')).length >= 2 && readdirSync(tmp).length >= 2);
      run.kill('SIGTERM');
      expect(await exited).toBe(143);
      expect(ownProcesses(tag)).toEqual([]);
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      run.kill('SIGKILL');
      await killOwn(tag);
      await rm(tmp, { recursive: true, force: true });
    }
  });
});

async function until(condition: () => boolean, maxMs = 60_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
