// The committed witness of the reference journal (reports/witnesses/) verifies, and a one-byte change breaks it.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { verifyReport } from '../../reports/verify.js';
import type { Report } from '../../reports/schema.js';
import { defaultLaunch, runConformance } from '../../runner/run-conformance.js';
import { scenarioOutcome } from '../../reports/seal.js';

const DIR = new URL('../../reports/witnesses/', import.meta.url);
const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));

describe('committed witness artifacts', () => {
  it('there is at least one witness of the reference journal', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)('%s verifies, is conformant, and recorded real kills with no duplicate writes', (file) => {
    const text = readFileSync(new URL(file, DIR), 'utf8');
    const report = JSON.parse(text) as Report;
    const result = verifyReport(report);
    expect(result.problems).toEqual([]);
    expect(report.implementation.name).toBe('ejc-reference-journal');
    expect(report.verdict).toBe('conformant');
    expect(report.counts.kills).toBeGreaterThan(0);
    expect(report.counts.duplicateWrites).toBe(0);
    expect(report.scenarios.flatMap((s) => s.trials).every((t) => t.kills.every((k) => k.signal === 'SIGKILL'))).toBe(true);
  });

  it.each(files)('%s: changing one byte of it makes verify fail', (file) => {
    const text = readFileSync(new URL(file, DIR), 'utf8');
    const at = text.indexOf('"physicalWrites": ') + '"physicalWrites": '.length;
    const digit = text[at]!;
    const tampered = `${text.slice(0, at)}${digit === '9' ? '8' : String(Number(digit) + 1)}${text.slice(at + 1)}`;
    expect(verifyReport(JSON.parse(tampered)).ok).toBe(false);
  });

  it('the reference witness still describes this code: a fresh run with its seed has the same outcome digest (npm run witness regenerates it)', async () => {
    const witness = JSON.parse(readFileSync(new URL('reference-journal.seed-1.json', DIR), 'utf8')) as Report;
    const fresh = await runConformance({
      launch: defaultLaunch(),
      scenarioPatterns: [],
      tags: [],
      seed: witness.seed,
      shard: null,
      expectFailures: new Set(),
      keep: 'none',
      timeoutMs: 30_000,
      argv: ['run'],
    });
    const notPassing = fresh.scenarios.filter((s) => s.verdict !== 'passed' && s.verdict !== 'not_applicable').map((s) => `${s.id}: ${s.verdict} (${s.reason ?? ''})`);
    expect(notPassing).toEqual([]);
    expect(fresh.verdict).toBe('conformant');
    // On a mismatch, name the scenarios whose outcome moved (a stale witness moves many, a load-dependent one a few).
    const moved = witness.scenarios.filter((s) => JSON.stringify(scenarioOutcome(s)) !== JSON.stringify(scenarioOutcome(fresh.scenarios.find((f) => f.id === s.id) ?? { ...s, id: `${s.id} (missing)` }))).map((s) => s.id);
    expect(fresh.outcomeDigest, `scenarios whose outcome differs from the witness: ${moved.join(', ') || 'none (the report-level fields)'}`).toBe(witness.outcomeDigest);
  }, 600_000);
});
