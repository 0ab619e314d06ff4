// The CLI's smaller output contracts end to end: -h, suggestions, explain by glob, list within the terminal's width,
// and a harness-side gap (no strace) as a warning that --require turns into an error.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dir } from 'tmp-promise';
import { describe, expect, it } from 'vitest';
import { listScenarios } from '../../scenarios/catalog.js';
import { ejc } from './ejc-process.js';

// Each spawn of ejc costs a second on a loaded machine: the rules are unit-tested in output-rules.test.ts, these check the wiring.
describe('the CLI wiring', () => {
  it('answers -h like --help, suggests nothing for a far typo, and refuses an unknown --require', async () => {
    const [short, long, far, require] = await Promise.all([ejc(['run', '-h']), ejc(['run', '--help']), ejc(['run', '--xyz']), ejc(['run', '--require', 'strase'])]);
    expect(short.exitCode).toBe(0);
    expect(short.stdout).toBe(long.stdout);
    expect(short.stdout).toContain('--exclude <glob>');
    expect(far.exitCode).toBe(3);
    expect(far.stderr).toBe('ejc: usage error: unknown flag --xyz for ejc run; see ejc run --help');
    expect(require.exitCode).toBe(3);
    expect(require.stderr).toContain('--require strase: unknown capability (did you mean strace?); known: strace, clock, pid-namespace, sqlite, sessions,');
  });

  it('explains a glob as JSON, and cuts list to the terminal width', async () => {
    const all = listScenarios();
    const [byGlob, narrow] = await Promise.all([ejc(['explain', 'cp0?.*tier3', '--json']), ejc(['list'], { env: { COLUMNS: '80' } })]);
    const ids = (JSON.parse(byGlob.stdout) as Array<{ id: string }>).map((s) => s.id);
    expect(ids.length).toBeGreaterThan(1);
    expect(ids).toEqual(all.filter((s) => /^cp0.\..*tier3$/.test(s.id)).map((s) => s.id));
    const lines = narrow.stdout.trimEnd().split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(79);
    expect(narrow.stdout).toContain('…');
    for (const s of all) expect(narrow.stdout).toContain(s.id);
  });
});

describe('ejc report', () => {
  it('renders any report file as a page, and says so when the report does not verify', async () => {
    const tmp = await dir({ unsafeCleanup: true });
    try {
      const witness = fileURLToPath(new URL('../../reports/witnesses/reference-journal.seed-1.json', import.meta.url));
      const tampered = join(tmp.path, 'tampered.json');
      const value = JSON.parse(await readFile(witness, 'utf8')) as { verdict: string };
      await writeFile(tampered, JSON.stringify({ ...value, verdict: 'inconclusive' }));
      const [good, bad, missing] = await Promise.all([
        ejc(['report', witness, '--html', join(tmp.path, 'witness.html')]),
        ejc(['report', tampered, '--html', join(tmp.path, 'tampered.html')]),
        ejc(['report', witness]),
      ]);
      expect(good.exitCode, good.stderr).toBe(0);
      expect(good.stdout).toMatch(/^wrote .*witness\.html \(\d+ scenario\(s\)\); open file:\/\/.*witness\.html in a browser$/);
      const page = await readFile(join(tmp.path, 'witness.html'), 'utf8');
      expect(page).toContain('<header class="verdict conformant">');
      expect(page).not.toContain('This report does not verify');
      expect(bad.exitCode).toBe(1);
      expect(bad.stdout).toContain('does not verify');
      expect(await readFile(join(tmp.path, 'tampered.html'), 'utf8')).toContain('<strong>This report does not verify</strong>');
      expect(missing.exitCode).toBe(3);
      expect(missing.stderr).toContain('ejc report needs --html <file>');
    } finally {
      await tmp.cleanup();
    }
  });
});

describe('a scenario family the harness machine cannot run', () => {
  // Without strace on PATH the every-write sweep cannot run: that is about this machine, not the journal.
  const NO_STRACE = { PATH: '/nonexistent' };

  it('is a warning (and a GitHub ::warning) on a run that still passes, and an error with --require strace', async () => {
    const tmp = await dir({ unsafeCleanup: true });
    try {
      const summary = join(tmp.path, 'summary.md');
      await writeFile(summary, '');
      const r = await ejc(['run', '--scenario', 'cp04.after-settle', '--scenario', 'sweep.prepare.every-write', '--transcript'], {
        env: { ...NO_STRACE, FORCE_COLOR: '1', GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, TMPDIR: tmp.path },
      });
      expect(r.exitCode, r.stderr).toBe(0);
      // --transcript keeps a passing trial's transcript, and nothing else of its directory.
      const kept = (await readdir(tmp.path)).filter((n) => /^tmp-\d+-/.test(n));
      expect(kept).toHaveLength(1);
      expect(await readdir(join(tmp.path, kept[0]!))).toEqual(['transcript.jsonl']);
      const plain = r.stdout.replace(/\x1b\[[0-9;]*m/g, '');
      expect(r.stdout).toContain('\x1b[32m');
      expect(plain).toContain('not applicable:\n  sweep    1 scenario(s): needs strace on the harness machine (with ptrace permitted)  [harness-side]');
      expect(plain).toContain('warning: 1 sweep scenario(s) did not run: needs strace on the harness machine');
      expect(r.stdout).toContain('::warning title=ejc%3A sweep not run::1 sweep scenario(s) did not run');
      expect(await readFile(summary, 'utf8')).toContain('| <code>sweep</code> | 1 | needs strace on the harness machine (with ptrace permitted) ⚠️ harness-side |');
      const required = await ejc(['run', '--scenario', 'sweep.prepare.every-write', '--require', 'strace'], { env: NO_STRACE });
      expect(required.exitCode).toBe(4);
      expect(required.stderr).toContain('ejc: harness_requirement: --require strace: this machine lacks strace (with ptrace permitted), so a SIGKILL at every durable write');
    } finally {
      await tmp.cleanup();
    }
  });
});
