// --require for journal capabilities: parsed before the run, checked against the hello after it, with the capability and the fix named.
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { checkRequirements, unmetRequirements } from '../../bin/require.js';
import { buildReport } from '../reports/fixture.js';
import { ejc } from '../cli/ejc-process.js';

const LEDGER = fileURLToPath(new URL('../fixtures/adapters/ledger-journal.mjs', import.meta.url));

describe('--require for journal capabilities', () => {
  it('splits commas, expands the contract profile and refuses an unknown name', () => {
    expect(checkRequirements(['sessions,kxm', 'point:prepare.before-commit'])).toEqual(['sessions', 'kxm', 'point:prepare.before-commit']);
    expect(checkRequirements(['contract'])).toEqual(['sessions', 'seeding', 'kxm', 'resolution']);
    expect(() => checkRequirements(['sesions'])).toThrow(/--require sesions: unknown capability \(did you mean sessions\?\)/);
  });

  it('names each unclaimed capability, the scenarios it kept out and the fix; a claimed one passes', () => {
    const report = buildReport();
    const caps = report.implementation.capabilities;
    expect(unmetRequirements(report, ['sessions', 'seeding', 'point:prepare.before-commit'])).toEqual([]);
    const lacking = { ...report, implementation: { ...report.implementation, capabilities: { ...caps, sessions: false } } };
    const [message, ...rest] = unmetRequirements(lacking, ['sessions', 'kxm']);
    expect(rest).toHaveLength(1);
    expect(message).toMatch(/^--require sessions: the journal's hello does not claim sessions, so \d+ scenario\(s\)/);
    expect(message).toContain('implement it and set capabilities.sessions: true in hello (then those scenarios run), or drop sessions from --require');
  });

  it('fails the gate (exit 1) after the run when the journal lacks a required capability', async () => {
    const r = await ejc(['run', '--impl', LEDGER, '--scenario', 'claims.storage-matches-hello', '--scenario', 'cp10.session.disclose-once', '--require', 'sessions,sqliteWal']);
    expect(r.stdout).toMatch(/^verdict: conformant/);
    expect(r.stderr).toContain("ejc: requirement_unmet: --require sessions: the journal's hello does not claim sessions, so 1 scenario(s) (cp10) did not run and the verdict says nothing about them");
    expect(r.stderr).not.toContain('--require sqliteWal');
    expect(r.exitCode).toBe(1);
  });
});
