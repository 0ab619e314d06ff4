// Root causes: a journal with exactly one deviation (its args digest persisted as bare hex, without `v5:`) reads as one
// or two findings in every output (terminal, report section, JUnit, GitHub step summary, HTML), not one per scenario.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ejc, type EjcResult } from '../cli/ejc-process.js';
import { normalisedCheck, type RootCause } from '../../reports/root-causes.js';
import { verifyReport } from '../../reports/verify.js';
import '../../harness/pack-sections.js';
import type { Report } from '../../reports/schema.js';

const FIT = fileURLToPath(new URL('../broken/fit-journals.mjs', import.meta.url));
// Scenarios of several families that all read the journal's rows (so all of them see the bare digest).
const SCENARIOS = ['cp02.after-prepare.tier3', 'cp04.after-settle', 'cp06.two-effects.kill-between', 'cp07.concurrent-prepare.race', 'cp09.tier1.after-dispatch.reconciling', 'identity.scope-exact', 'digest.persisted-form', 'identity.inputs', 'retention.sibling-run-ids', 'concurrency.interleaved-writers-keep-rows'];

let out: string;
let run: EjcResult;
let report: Report;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'ejc-root-causes-'));
  run = await ejc(
    ['run', '--impl', FIT, '--impl-option', 'defect=digest-plain-hex', ...SCENARIOS.flatMap((s) => ['--scenario', s]), '--out', out, '--junit', join(out, 'junit.xml'), '--html', join(out, 'report.html')],
    { env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(out, 'summary.md') } },
  );
  report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
}, 600_000);

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
});

describe('one deviation, many failed scenarios', () => {
  it('fails many scenarios (the deviation is really seen everywhere)', () => {
    expect(run.exitCode).toBe(1);
    expect(report.summary.failed).toBeGreaterThanOrEqual(8);
  });

  it('the report section groups them under at most two root causes, naming the digest form and §11', () => {
    const causes = report.sections['root-causes'] as RootCause[];
    expect(causes.length).toBeGreaterThanOrEqual(1);
    expect(causes.length).toBeLessThanOrEqual(2);
    expect(causes.reduce((n, c) => n + c.scenarios.length, 0)).toBe(report.summary.failed);
    expect(causes[0]!.check).toMatch(/persisted form/);
    expect(causes[0]!.clause).toMatch(/§11/);
    expect(verifyReport(report).problems).toEqual([]);
  });

  it('a report whose root-cause section was edited does not verify', () => {
    const causes = report.sections['root-causes'] as RootCause[];
    const edited = { ...report, sections: { ...report.sections, 'root-causes': causes.slice(1).concat(causes.slice(0, 1).map((c) => ({ ...c, scenarios: c.scenarios.slice(1) }))) } };
    expect(verifyReport(edited).problems.join('\n')).toMatch(/root-causes/);
  });

  it('the terminal leads with it: the second line names the root cause count', () => {
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^verdict: /);
    expect(lines[1]).toMatch(/^[12] root causes? for \d+ failed scenarios; first: args digests .* persisted form/);
    expect(run.stdout.indexOf('root cause')).toBeLessThan(run.stdout.indexOf('not passing:'));
  });

  it('JUnit leads its properties with it', () => {
    const xml = readFileSync(join(out, 'junit.xml'), 'utf8');
    const first = /<properties>\s*<property name="([^"]+)" value="([^"]*)"/.exec(xml);
    expect(first?.[1]).toBe('rootCauses');
    expect(first?.[2]).toMatch(/^[12] root causes? for/);
    expect((xml.match(/name="rootCause\.\d+"/g) ?? []).length).toBeLessThanOrEqual(2);
  });

  it('the GitHub step summary and the HTML page lead with it', () => {
    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(md.split('\n').slice(0, 4).join('\n')).toMatch(/\*\*[12] root causes? for \d+ failed scenarios/);
    expect(md.indexOf('### Root cause')).toBeLessThan(md.indexOf('### Not passing'));
    const page = readFileSync(join(out, 'report.html'), 'utf8');
    expect(page).toMatch(/<section id="root-causes"><h2>[12] root causes? for \d+ failed scenarios/);
    expect(page.indexOf('id="root-causes"')).toBeLessThan(page.indexOf('id="scenarios"'));
  });
});

describe('normalisedCheck', () => {
  it('groups the same check at another moment and over other rows, and keeps different checks apart', () => {
    const a = normalisedCheck({ name: 'args digests at the end have the persisted form v5:<SHA-256 hex> (effect-journal §11)', expected: [] });
    const b = normalisedCheck({ name: 'args digests before the checks have the persisted form v5:<SHA-256 hex> (effect-journal §11)', expected: [] });
    expect(a).toBe(b);
    expect(normalisedCheck({ name: 'gate of run-3f9a/node-a', expected: 'refuse' })).toBe(normalisedCheck({ name: 'gate of run-81bc/node-a', expected: 'refuse' }));
    expect(normalisedCheck({ name: 'gate of node-c', expected: 'refuse' })).not.toBe(normalisedCheck({ name: 'gate of node-c', expected: 'pass' }));
  });
});
