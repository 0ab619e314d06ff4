// The hostile-driver catalogue (test/broken/hostile/) through `ejc run`: the verdict each must get, and that none
// leaves a process (found by this test's own EJC_TEST_TAG) or a temp directory (in this test's own TMPDIR) behind.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STDERR_LOG_LIMIT } from '../../harness/driver/stderr-log.js';
import { CONFINEMENT_VAR } from '../../shared/confinement.js';
import { externalExclusion, PROCESS_TREE_EXCLUSION } from '../../reports/boundary.js';
import type { Report } from '../../reports/schema.js';
import { verifyReport } from '../../reports/verify.js';
import { ejc } from '../cli/ejc-process.js';
import { root } from './helpers.js';
import { killOwn, newTag, TAG_VAR } from './own-processes.js';

const HOSTILE = join(root, 'test', 'broken', 'hostile');
const BOUNDARY_KILL = 'cp02.after-prepare.tier3';
const POINT_KILL = 'cp01.prepare-before-commit';
const DISPATCH_KILL = 'cp03.after-dispatch.tier3';
const FALLBACK = { [CONFINEMENT_VAR]: 'process-tree' };
let tmp: string;
let tag: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'ejc-hostile-test-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
afterEach(async () => {
  expect(await killOwn(tag)).toEqual([]);
  expect(readdirSync(tmp)).toEqual([]);
});

async function run(launch: string[], scenarios: string[], extra: string[] = [], env: Record<string, string> = {}): Promise<{ exitCode: number; report: Report }> {
  tag = newTag('hostile');
  const args = ['run', ...launch, ...scenarios.flatMap((s) => ['--scenario', s]), ...extra, '--json'];
  const r = await ejc(args, { env: { [TAG_VAR]: tag, TMPDIR: tmp, ...env } });
  try {
    return { exitCode: r.exitCode, report: JSON.parse(r.stdout) as Report };
  } catch (err) {
    throw new Error(`ejc ${args.join(' ')} printed no report (exit ${r.exitCode}): ${r.stderr}`, { cause: err });
  }
}

const cmd = (file: string, ...flags: string[]): string[] => ['--cmd', [process.execPath, join(HOSTILE, file), ...flags].join(' ')];
const kills = (report: Report) => report.scenarios.flatMap((s) => s.trials.flatMap((t) => t.kills));
const reasons = (report: Report) => report.scenarios.map((s) => s.reason ?? '').join('\n');

/** Every kill was a real crash: its tree was found whole, some of it outside the driver's group, and nothing survived. */
function expectEscapesKilled(report: Report, cmdline: RegExp): void {
  expect(kills(report).length).toBeGreaterThan(0);
  for (const kill of kills(report)) {
    expect(kill.signal).toBe('SIGKILL');
    expect(kill.tree?.survivors).toEqual([]);
    expect(kill.tree?.escaped.some((p) => cmdline.test(p.cmdline))).toBe(true);
  }
}

describe('hostile drivers', () => {
  it('a driver handing its journal to a setsid daemon: the daemon is found by its mark and killed with it (a real crash)', async () => {
    const { exitCode, report } = await run(cmd('setsid-daemon.mjs'), [BOUNDARY_KILL, POINT_KILL]);
    expect([exitCode, report.verdict]).toEqual([0, 'conformant']);
    expectEscapesKilled(report, /host\.js --module/);
  });

  it('a journal behind a relay, server in its own session: found by its mark, killed with the relay', async () => {
    const { exitCode, report } = await run(cmd('relay.mjs'), [BOUNDARY_KILL]);
    expect([exitCode, report.verdict]).toEqual([0, 'conformant']);
    expectEscapesKilled(report, /relay-server\.mjs/);
  });

  it('a journal behind a relay whose server cleared its environment: found through its parent, killed with the relay', async () => {
    const { exitCode, report } = await run(cmd('relay.mjs', '--clear-env'), [BOUNDARY_KILL]);
    expect([exitCode, report.verdict]).toEqual([0, 'conformant']);
    expectEscapesKilled(report, /host\.js --module/);
  });

  it('a relay server that cleared its environment and double-forked: found in the namespace and killed with the relay', async () => {
    const { exitCode, report } = await run(cmd('relay.mjs', '--clear-env', '--orphan'), [BOUNDARY_KILL]);
    expect(report.environment[0]!.confinement).toBe('pid-namespace');
    expect([exitCode, report.verdict]).toEqual([0, 'conformant']);
    expectEscapesKilled(report, /host\.js --module/);
  });

  it('the same relay without PID namespaces (forced fallback) dodges the kill: inconclusive, the holder named', async () => {
    const { exitCode, report } = await run(cmd('relay.mjs', '--clear-env', '--orphan'), [BOUNDARY_KILL], [], FALLBACK);
    expect(report.environment[0]!.confinement).toBe('process-tree');
    expect([exitCode, report.verdict]).toEqual([2, 'inconclusive']);
    expect(report.scenarios[0]!.verdict).toBe('inconclusive');
    expect(reasons(report)).toMatch(/the kill of primary#\d+ at boundary:after-prepare, 1 process\(es\) outside the harness's kill still ran or held the journal's files: `.*host\.js --module.*` holding <trial>\/journal\/effects\.db/);
    const survivor = kills(report)[0]!.tree!.survivors[0]!;
    expect(survivor.holds).toContain('<trial>/journal/effects.db');
  });

  it('the same relay declaring its server as externalState: not a survivor, and the boundary names the server', async () => {
    const { exitCode, report } = await run(cmd('relay.mjs', '--clear-env', '--orphan', '--declare-external'), [BOUNDARY_KILL]);
    expect([exitCode, report.verdict]).toEqual([0, 'conformant']);
    expect(report.implementation.capabilities.externalState).toBe('hostile relay server (test)');
    expect(report.boundary.excludes).toContain(externalExclusion('hostile relay server (test)'));
    expect(verifyReport(report)).toEqual({ ok: true, problems: [] });
    // A server the driver started itself is one of its processes: it died with the driver's namespace (only a server
    // started outside the harness outlives a kill; kill-proof.test.ts shows the harness leaves that one alone).
    expect(await killOwn(tag)).toEqual([]);
  });

  it('a write-behind journal whose prepares wait in a hidden memory daemon: confined, the daemon dies with the driver and the lost prepare fails cp02/cp03', async () => {
    const { exitCode, report } = await run(['--impl', join(HOSTILE, 'memory-daemon.mjs')], [BOUNDARY_KILL, DISPATCH_KILL]);
    expect([exitCode, report.verdict]).toEqual([1, 'nonconformant']);
    expect(report.scenarios.map((s) => [s.id, s.verdict]).sort()).toEqual([[DISPATCH_KILL, 'failed'], [BOUNDARY_KILL, 'failed']].sort());
    expect(report.scenarios.find((s) => s.id === BOUNDARY_KILL)!.trials[0]!.assertions.some((a) => a.name === 'gate decision' && !a.passed)).toBe(true);
    // The evidence: each kill found the daemon in the driver's namespace (it had no other link) and killed it with the driver.
    expectEscapesKilled(report, /memory-daemon-server\.mjs/);
  });

  it('the same journal under the forced process-tree fallback is not seen, and the report says so in its boundary', async () => {
    const { exitCode, report } = await run(['--impl', join(HOSTILE, 'memory-daemon.mjs')], [BOUNDARY_KILL], [], FALLBACK);
    expect(report.environment[0]!.confinement).toBe('process-tree');
    // It passes (the hole today's scan leaves), but never silently: the boundary names exactly what the fallback cannot see.
    expect([exitCode, report.verdict]).toEqual([0, 'conformant']);
    expect(report.boundary.excludes).toContain(PROCESS_TREE_EXCLUSION);
    expect(PROCESS_TREE_EXCLUSION).toMatch(/double-forked, cleared their environment, left its session and hold no file under the journal directory/);
    expect(verifyReport(report)).toEqual({ ok: true, problems: [] });
    // The daemon outlived every kill (that is the hole the boundary names); this test started it, so it ends it.
    const outlived = await killOwn(tag);
    expect(outlived.length).toBeGreaterThan(0);
    expect(outlived.every((p) => /memory-daemon-server\.mjs/.test(p.cmdline))).toBe(true);
  });

  it('an ordinary driver with a setsid grandchild: the escape is recorded on each kill and nothing outlives the run', async () => {
    const { exitCode, report } = await run(['--impl', join(HOSTILE, 'setsid-grandchild.mjs')], [BOUNDARY_KILL]);
    expect([exitCode, report.verdict]).toEqual([0, 'conformant']);
    expectEscapesKilled(report, /^sleep 3600$/);
  });

  it('a hanging driver: inconclusive on the timeout, its tree (and grandchild) killed', async () => {
    const { exitCode, report } = await run(cmd('hang.mjs'), [BOUNDARY_KILL], ['--timeout', '1500']);
    expect([exitCode, report.verdict]).toEqual([2, 'inconclusive']);
    expect(reasons(report)).toMatch(/operation_timeout: primary#1: open did not answer within 1500 ms/);
  });

  it('a 100 MB line: refused as a protocol violation once it passed 64 MiB', async () => {
    const { exitCode, report } = await run(cmd('long-line.mjs'), [BOUNDARY_KILL]);
    expect([exitCode, report.verdict]).toEqual([2, 'inconclusive']);
    expect(reasons(report)).toMatch(/protocol violation in open: a line exceeded 67108864 bytes without a newline/);
  });

  it('a journal flooding stderr: conformant, and each kept stderr log is capped with a marker and the bytes dropped', async () => {
    const { exitCode, report } = await run(['--impl', join(HOSTILE, 'stderr-flood.mjs')], [BOUNDARY_KILL], ['--keep']);
    expect([exitCode, report.verdict]).toEqual([0, 'conformant']);
    const kept = readdirSync(tmp).map((d) => join(tmp, d));
    const logs = kept.flatMap((d) => readdirSync(d).filter((f) => f.endsWith('.stderr.log')).map((f) => join(d, f)));
    expect(logs.length).toBeGreaterThan(0);
    for (const log of logs) {
      expect(statSync(log).size).toBeLessThan(STDERR_LOG_LIMIT + 300);
      const text = readFileSync(log, 'latin1');
      expect(text).toContain(`[ejc] stderr log cut here: it reached its limit of ${STDERR_LOG_LIMIT} bytes; the rest is dropped`);
      expect(Number(/\[ejc\] (\d+) bytes of stderr were dropped after the cut\n$/.exec(text)?.[1])).toBeGreaterThan(0);
    }
    for (const d of kept) rmSync(d, { recursive: true, force: true });
  });
});
