// The s8e report section end to end: a real batch against the reference journal (needs `npx tsc -p .`), then verify and tamper.
import { beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { defaultLaunch, runConformance, type RunOptions } from '../../runner/run-conformance.js';
import { verifyReport } from '../../reports/verify.js';
import { sealReport } from '../../reports/seal.js';
import type { Report } from '../../reports/schema.js';
import '../../harness/s8e/section-verifier.js';
import type { S8eEntry } from '../../harness/s8e/entry.js';

const BROKEN = fileURLToPath(new URL('../broken/broken-journal.mjs', import.meta.url));

function options(launch: RunOptions['launch']): RunOptions {
  return { launch, scenarioPatterns: ['s8e.batch'], tags: [], seed: 1, shard: null, expectFailures: new Set(), keep: 'none', timeoutMs: 60_000, argv: ['run', '--scenario', 's8e.batch'] };
}

function reseal(r: Report): Report {
  const { outcomeDigest: _o, contentHash: _c, ...rest } = r;
  return sealReport(rest);
}

function entryOf(r: Report): S8eEntry {
  return (r.sections['s8e'] as Record<string, S8eEntry>)['s8e.batch']!;
}

let report: Report;

beforeAll(async () => {
  report = await runConformance(options(defaultLaunch()));
});

describe('sections.s8e of a real run', () => {
  it('carries the S8e states and counts of the uninterrupted batch', () => {
    expect(report.verdict).toBe('conformant');
    const e = entryOf(report);
    expect(e.states).toMatchObject({ confirmed: 6, idempotent_replay_confirmed: 3, denied: 5, conflict: 1, failed_before_write: 1, cancelled_before_dispatch: 1, unknown_pending_readback: 1, approval_not_run: 1, dry_run: 1, breaker_not_run: 2 });
    expect(e.counts).toEqual({ dispatchAttempts: 8, physicalWrites: 7, duplicateWrites: 0, restartWrites: 0, cancelledBeforeDispatchAttempts: 0 });
    expect(e.fold).toMatchObject({ confirmedReceipts: 9, unknownExcluded: 1, narrationInFold: false });
    expect(e.unknown).toEqual([{ actionId: 'a15', journalState: 'ambiguous', resolvedTo: 'replayed_confirmed', journalStateAfter: 'committed', writesDuringReadback: 0, physicalWritesForIntent: 1 }]);
  });

  it('verifies', () => {
    expect(verifyReport(report)).toEqual({ ok: true, problems: [] });
  });

  it('rejects a tampered section even when the report is resealed', () => {
    const tampered = structuredClone(report);
    entryOf(tampered).counts.duplicateWrites = 1;
    const problems = verifyReport(reseal(tampered)).problems;
    expect(problems.some((p) => p.startsWith('$.sections.s8e: ["s8e.batch"].counts.duplicateWrites: is 1'))).toBe(true);
    expect(problems.some((p) => p.includes('duplicate writes: is 1, the S8e table needs 0'))).toBe(true);
  });

  it('rejects states that do not add up, and a section for a scenario the report lacks', () => {
    const tampered = structuredClone(report);
    entryOf(tampered).states.confirmed = 7;
    (tampered.sections['s8e'] as Record<string, unknown>)['s8e.ghost'] = entryOf(report);
    const problems = verifyReport(reseal(tampered)).problems;
    expect(problems).toContain('$.sections.s8e: ["s8e.batch"].states: sum to 23, selected is 22');
    expect(problems).toContain('$.sections.s8e: ["s8e.ghost"]: no scenario s8e.ghost in this report');
  });

  it('rejects an extra claim inside an entry, and a tampered section without reseal', () => {
    const extra = structuredClone(report);
    (entryOf(extra) as unknown as Record<string, unknown>)['exactlyOnce'] = true;
    expect(verifyReport(reseal(extra)).problems.some((p) => p.startsWith('$.sections.s8e: ["s8e.batch"]: Unrecognized key'))).toBe(true);
    const unsealed = structuredClone(report);
    entryOf(unsealed).fold.confirmedReceipts = 10;
    expect(verifyReport(unsealed).ok).toBe(false);
  });
});

describe('sections.s8e of a broken journal', () => {
  it('an ambiguous settle recorded as a commit fails the batch, and the honest report still verifies', async () => {
    const broken = await runConformance(options({ kind: 'module', module: BROKEN, options: { defect: 'ambiguous-settles-committed' } }));
    expect(broken.verdict).toBe('nonconformant');
    expect(broken.scenarios[0]!.reason).toBe('assertion failed: the unknown is left unresolved in the journal after cancellation (prepared, ambiguous or needs_attention)');
    expect(entryOf(broken).unknown[0]!.journalState).toBe('committed');
    expect(verifyReport(broken)).toEqual({ ok: true, problems: [] });
  });
});
