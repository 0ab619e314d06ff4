// A run on a machine without strace, libfaketime and PID namespaces says so: in the report, before the verdict, and as a --require failure.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dir } from 'tmp-promise';
import { describe, expect, it } from 'vitest';
import { ejc } from './ejc-process.js';
import { notTestedOf } from '../../reports/not-tested.js';
import { sealReport } from '../../reports/seal.js';
import type { Report } from '../../reports/schema.js';

// No strace and no unshare on PATH (so no PID namespaces either), libfaketime pointed at a file that is not there, and
// no clock shim: without cc on PATH none is built, but one an earlier run of this checkout built would still be used.
const BARE = { PATH: '/nonexistent', EJC_LIBFAKETIME: '/nonexistent/libfaketime.so.1', EJC_CLOCK_SHIM: 'off' };

describe('dimensions the machine lacks', () => {
  it('are listed under notTested with the install command, printed before the verdict, excluded by the boundary, and kept out of generation', async () => {
    const tmp = await dir({ unsafeCleanup: true });
    try {
      const out = join(tmp.path, 'out');
      const summary = join(tmp.path, 'summary.md');
      await writeFile(summary, '');
      const html = join(tmp.path, 'report.html');
      const r = await ejc(['run', '--scenario', 'cp04.after-settle', '--scenario', 'sweep.prepare.every-write', '--scenario', 'explore.runs', '--out', out, '--html', html], {
        env: { ...BARE, TMPDIR: tmp.path, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
      });
      expect(r.exitCode, r.stderr).toBe(0);
      const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
      expect(report.notTested?.map((e) => e.dimension)).toEqual(['strace', 'clock', 'pid-namespace']);
      const [strace, clock, pid] = report.notTested!;
      expect(strace!.install).toContain('apt-get install strace');
      expect(strace!.scenarios).toEqual(['sweep.prepare.every-write']);
      expect(clock!.install).toContain('apt-get install faketime');
      expect(clock!.untested).toContain('restarts after the clock moved hours or days');
      expect(pid!.install).toContain('unshare --pid --fork');
      expect(report.environment[0]).toMatchObject({ strace: null, faketime: null, confinement: 'process-tree' });
      // The claim narrows: neither the syscall kills nor the clock jumps are claimed.
      expect(report.boundary.excludes.filter((x) => x.endsWith('(strace not tested)') || x.endsWith('(clock not tested)'))).toHaveLength(2);
      // Generation left out what the machine could not do, and the report says so.
      const explore = (report.sections['explore'] as Record<string, { machine: string; trials: Array<Record<string, unknown>> }>)['explore.runs']!;
      expect(explore.machine).toBe('none');
      // The terminal: before the first trial on stderr, and in the summary before the verdict line.
      expect(r.stderr).toContain('ejc: this machine lacks libfaketime or a C compiler (cc, for ejc\'s own clock shim): clock will not be tested (apt-get install faketime');
      const verdictAt = r.stdout.indexOf('verdict: ');
      const notTestedAt = r.stdout.indexOf('not tested on this machine (3 dimension(s) missing');
      expect(notTestedAt).toBeGreaterThanOrEqual(0);
      expect(notTestedAt).toBeLessThan(verdictAt);
      expect(r.stdout.slice(notTestedAt, verdictAt)).toContain('  clock: no libfaketime or a C compiler (cc, for ejc\'s own clock shim): restarts after the clock moved');
      expect(r.stdout.slice(notTestedAt, verdictAt)).toContain('--require clock makes its absence a failure (exit 4)');
      // The HTML page and the GitHub step summary and annotations say it too.
      const page = await readFile(html, 'utf8');
      expect(page).toContain('<section id="not-tested" class="problems"><h2>Not tested on this machine</h2>');
      expect(page).toContain('apt-get install faketime');
      const md = await readFile(summary, 'utf8');
      expect(md).toContain('### ⚠️ Not tested on this machine');
      expect(md).toContain('| <code>clock</code> |');
      expect(r.stdout).toContain('::warning title=ejc%3A clock not tested::no libfaketime or a C compiler (cc, for ejc\'s own clock shim) on this runner');
      // The list is what the environment shows: verify refuses a report that drops an entry.
      expect((await ejc(['verify', join(out, 'report.json')])).exitCode).toBe(0);
      const { outcomeDigest: _o, contentHash: _c, ...rest } = report;
      const hidden = join(tmp.path, 'hidden.json');
      await writeFile(hidden, JSON.stringify(sealReport({ ...rest, notTested: report.notTested!.filter((e) => e.dimension !== 'clock') })));
      const v = await ejc(['verify', hidden]);
      expect(v.exitCode).toBe(1);
      expect(v.stdout + v.stderr).toContain('$.notTested: differs from the dimensions its environment lacked');
    } finally {
      await tmp.cleanup();
    }
  });

  it('--require clock / faketime / pid-namespace / strace fails before any trial with exit 4, naming the install command', async () => {
    const runs = await Promise.all(
      [['clock', 'apt-get install faketime'], ['faketime', 'apt-get install faketime'], ['pid-namespace', 'unshare --pid --fork'], ['strace', 'apt-get install strace']].map(async ([name, fix]) => ({
        name: name!,
        fix: fix!,
        r: await ejc(['run', '--scenario', 'cp04.after-settle', '--require', name!], { env: BARE }),
      })),
    );
    for (const { name, fix, r } of runs) {
      expect(r.exitCode, `${name}: ${r.stderr}`).toBe(4);
      expect(r.stderr).toContain(`ejc: harness_requirement: --require ${name === 'faketime' ? 'clock' : name}: this machine lacks`);
      expect(r.stderr).toContain(fix);
      expect(r.stdout).not.toContain('verdict:');
    }
  });

  it('a merge lists what any shard\'s machine lacked; an environment from before the probe lists nothing for it', () => {
    const here = { confinement: 'pid-namespace' as const, strace: '6.1', faketime: '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1' };
    const bare = { confinement: 'process-tree' as const, strace: null, faketime: null };
    expect(notTestedOf([here], [])).toEqual([]);
    expect(notTestedOf([here, bare], []).map((e) => e.dimension)).toEqual(['strace', 'clock', 'pid-namespace']);
    expect(notTestedOf([{ confinement: 'pid-namespace', strace: '6.1' }], [])).toEqual([]);
  });
});
