import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { outcomeView, sealReport } from '../../reports/seal.js';
import type { Report } from '../../reports/schema.js';
import { verifyReport } from '../../reports/verify.js';
import { buildReport, clone } from './fixture.js';

function unsealed(r: Report) {
  const { outcomeDigest: _o, contentHash: _c, ...rest } = r;
  return rest;
}

// The same object with every key inserted in reverse order.
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reverseKeys(v)]));
  }
  return value;
}

describe('sealReport', () => {
  it('is deterministic and independent of key order', () => {
    const r = buildReport();
    const again = sealReport(unsealed(r));
    expect(again).toEqual(r);
    const reordered = sealReport(reverseKeys(unsealed(r)) as ReturnType<typeof unsealed>);
    expect(reordered.contentHash).toBe(r.contentHash);
    expect(reordered.outcomeDigest).toBe(r.outcomeDigest);
  });

  it('keeps the outcome digest across timings, host, stderr and scenario order, but not the content hash', () => {
    const r = buildReport();
    const other = clone(unsealed(r));
    other.startedAt = '2030-05-05T05:05:05.000Z';
    other.durationMs = 1;
    other.harness.node = 'v22.0.0';
    other.harness.platform = 'darwin-arm64';
    other.scenarios.reverse();
    other.scenarios[0]!.durationMs = 999;
    other.scenarios[2]!.trials[0]!.durationMs = 0;
    other.scenarios[2]!.trials[0]!.stderrTail = ['a log line'];
    other.reproduce.run = 'ejc run --seed 1 --shard 1/1 --json';
    const sealed = sealReport(other);
    expect(sealed.outcomeDigest).toBe(r.outcomeDigest);
    expect(sealed.contentHash).not.toBe(r.contentHash);
    expect(JSON.stringify(outcomeView(sealed))).not.toContain('darwin');
  });

  it('changes the outcome digest when an outcome changes', () => {
    const r = clone(unsealed(buildReport()));
    const before = sealReport(r).outcomeDigest;
    r.scenarios[0]!.trials[0]!.assertions[0]!.actual = 2;
    expect(sealReport(r).outcomeDigest).not.toBe(before);
  });

  it('detects any one-byte change of the serialized report', () => {
    const text = JSON.stringify(buildReport());
    const printable = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
    fc.assert(
      fc.property(fc.nat({ max: text.length - 1 }), printable, (index, char) => {
        fc.pre(text[index] !== char);
        const tampered = text.slice(0, index) + char + text.slice(index + 1);
        let value: unknown;
        try {
          value = JSON.parse(tampered);
        } catch {
          return true;
        }
        return !verifyReport(value).ok;
      }),
      { seed: 20260101, numRuns: 300 },
    );
  });

  it('detects a one-byte change inside a digit of the pretty-printed file', () => {
    const text = JSON.stringify(buildReport(), null, 2);
    const at = text.indexOf('"seq": 7') + '"seq": '.length;
    const tampered = `${text.slice(0, at)}8${text.slice(at + 1)}`;
    const result = verifyReport(JSON.parse(tampered));
    expect(result.ok).toBe(false);
    expect(result.problems.some((p) => p.startsWith('$.contentHash'))).toBe(true);
  });
});
