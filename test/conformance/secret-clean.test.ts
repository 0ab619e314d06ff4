// No false positives from the secrets red team's scenarios: the reference in both tier modes, the log and Python
// examples and the from-scratch journals (ledger, files, notes) pass every one of them, and the notes journal the base
// of the secret-notes-* journals, also the scans that catch those.
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runConformance } from '../../runner/run-conformance.js';
import type { Launch, Report } from '../../reports/schema.js';
import { EDGE_CLEAN } from './edge-targets.js';
import { NOTES_CLEAN } from './secret-targets.js';

const NEW = ['secrets.credential-only-change.shapes', 'secrets.unresolved-never-on-disk'];
const FILES = fileURLToPath(new URL('../broken/realistic/core-files-journal.mjs', import.meta.url));

function run(launch: Launch, scenarioPatterns: readonly string[]): Promise<Report> {
  return runConformance({ launch, scenarioPatterns: [...scenarioPatterns], tags: [], seed: 1, shard: null, expectFailures: new Set(), keep: 'none', timeoutMs: 10_000, argv: ['run'] });
}

const CASES: ReadonlyArray<{ name: string; launch: Launch; patterns: readonly string[] }> = [
  { name: 'the reference journal', launch: { kind: 'module', module: EDGE_CLEAN.reference, options: {} }, patterns: NEW },
  { name: 'the reference journal, conservative', launch: { kind: 'module', module: EDGE_CLEAN.reference, options: { tierMode: 'conservative' } }, patterns: NEW },
  { name: 'the log journal', launch: { kind: 'module', module: EDGE_CLEAN.log, options: {} }, patterns: NEW },
  { name: 'the Python journal', launch: { kind: 'command', command: `python3 ${EDGE_CLEAN.python}` }, patterns: NEW },
  { name: 'the from-scratch ledger journal', launch: { kind: 'module', module: EDGE_CLEAN.ledger, options: {} }, patterns: NEW },
  { name: 'the from-scratch files journal', launch: { kind: 'module', module: FILES, options: {} }, patterns: NEW },
  { name: 'the from-scratch notes journal', launch: { kind: 'module', module: NOTES_CLEAN, options: {} }, patterns: [...NEW, 'secrets.args-never-on-disk'] },
];

describe('the secrets scenarios against journals without a secrets bug', () => {
  for (const c of CASES) {
    it(`${c.name} passes ${c.patterns.join(', ')}`, { timeout: 120_000 }, async () => {
      const report = await run(c.launch, c.patterns);
      // Passed, not merely not applicable: each ran.
      expect(Object.fromEntries(report.scenarios.map((s) => [s.id, s.verdict === 'passed' ? 'passed' : `${s.verdict}: ${s.reason ?? ''}`]))).toEqual(Object.fromEntries(c.patterns.map((id) => [id, 'passed'])));
      expect(report.verdict).toBe('conformant');
    });
  }
});
