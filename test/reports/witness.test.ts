// The committed witness of the reference journal (reports/witnesses/) verifies, and a one-byte change breaks it.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { verifyReport } from '../../reports/verify.js';
import type { Report } from '../../reports/schema.js';

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
});
