// The dimensions profile bites: sessions sharing the runs' ids catch a journal that scopes rows without their kind
// (scope-ignores-kind, which identity.ids-collide-across-kinds catches too) and one that only this profile catches
// (DIMENSIONS_PROFILE in test/broken/realistic/index.mjs), where the mixed profile's first trials of the same seed pass;
// the reference passes the same trials.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ejc } from '../cli/ejc-process.js';

const realistic = (await import(new URL('../broken/realistic/index.mjs', import.meta.url).href)) as {
  DIMENSIONS_PROFILE: ReadonlyArray<{ name: string; trials: number; clause: string }>;
  realisticModule: (name: string) => string;
};
const SCOPE_IGNORES_KIND = fileURLToPath(new URL('../broken/realistic/scope-ignores-kind.mjs', import.meta.url));
const explore = (profile: string, impl: string[], trials = 2) => ejc(['explore', ...impl, '--profile', profile, '--seed', '1', '--trials', String(trials), '--max-shrinks', '0', '--jobs', '1']);

describe('ejc explore --profile dimensions', () => {
  it('fails scope-ignores-kind on gate.scope within two trials of seed 1', async () => {
    const r = await explore('dimensions', ['--impl', SCOPE_IGNORES_KIND]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('gate.scope');
  });

  it('where the mixed profile passes those two trials (what the profile adds)', async () => {
    const r = await explore('mixed', ['--impl', SCOPE_IGNORES_KIND]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
  });

  for (const { name, trials, clause } of realistic.DIMENSIONS_PROFILE) {
    it(`fails ${name} on ${clause} within ${trials} trial(s) of seed 1, which the mixed profile's same trials pass`, async () => {
      const impl = ['--impl', realistic.realisticModule(name)];
      const dimensions = await explore('dimensions', impl, trials);
      expect(dimensions.exitCode, dimensions.stdout + dimensions.stderr).toBe(1);
      expect(dimensions.stdout).toMatch(new RegExp(`clause: +${clause} `));
      const mixed = await explore('mixed', impl, trials);
      expect(mixed.exitCode, mixed.stdout + mixed.stderr).toBe(0);
    });
  }

  it('and the reference journal passes them', async () => {
    const r = await explore('dimensions', []);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
  });
});
