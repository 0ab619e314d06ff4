// The dimensions profile bites: sessions sharing the runs' ids catch a journal that scopes rows without their kind,
// which the mixed profile's first trials of the same seed pass; the reference passes the same trials.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ejc } from '../cli/ejc-process.js';

const SCOPE_IGNORES_KIND = fileURLToPath(new URL('../broken/realistic/scope-ignores-kind.mjs', import.meta.url));
const explore = (profile: string, impl: string[]) => ejc(['explore', ...impl, '--profile', profile, '--seed', '1', '--trials', '2', '--max-shrinks', '0', '--jobs', '1']);

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

  it('and the reference journal passes them', async () => {
    const r = await explore('dimensions', []);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
  });
});
