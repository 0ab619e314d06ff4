// Generated trials resolve session rows: an operator resolves what a session's turn left unresolved, then the session
// resumes. A journal that answers a session row's resolution without writing it (session-resolve-not-durable, which no
// generated trial reached before) fails the mixed profile within two trials of seed 1; the reference passes them.
import { describe, expect, it } from 'vitest';
import { ejc } from '../cli/ejc-process.js';

const realistic = (await import(new URL('../broken/realistic/index.mjs', import.meta.url).href)) as { realisticModule: (name: string) => string };
const explore = (impl: string[]) => ejc(['explore', ...impl, '--seed', '1', '--trials', '2', '--max-shrinks', '0', '--jobs', '1']);

describe('generated session resolutions', () => {
  it('fail session-resolve-not-durable on the listing after the resolution, within two trials of seed 1', async () => {
    const r = await explore(['--impl', realistic.realisticModule('session-resolve-not-durable')]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/clause: +listing /);
    expect(r.stdout).toMatch(/resolve \S+ as (accepted|discarded)/);
  });

  it('and the reference journal passes those trials', async () => {
    const r = await explore([]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
  });
});
