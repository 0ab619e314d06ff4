// A journal written from the documents only (test/fixtures/independent: Python, one JSON file per effect, no SQLite)
// passes the scenarios that touch its choices, and each of its single-bug copies fails the scenario that catches it.
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runLaunchScenarios } from './run-targets.js';
import type { Report } from '../../reports/schema.js';

const JOURNAL = fileURLToPath(new URL('../fixtures/independent/journal.py', import.meta.url));

/** `bug` names one deliberate bug of the journal (its INDEP_BUG), or null for the correct journal. */
function run(bug: string | null, scenarios: readonly string[]): Promise<Report> {
  const env = bug === null ? '' : `INDEP_BUG=${bug} `;
  return runLaunchScenarios({ kind: 'command', command: `${env}python3 ${JOURNAL}` }, scenarios);
}

const verdicts = (report: Report): Record<string, string> =>
  Object.fromEntries(report.scenarios.map((s) => [s.id, s.verdict === 'passed' ? 'passed' : `${s.verdict}: ${s.reason ?? ''}`]));

// The correct journal on scenarios that exercise where it chose differently from the reference: a pass without a
// refusal field and a read failure without tier or ids (gate), an unresolved holder refused as
// unresolved_prior_effect, a discarded row kept beside its successor, a torn terminal sweep, a store that is not SQLite.
const CONFORMANT = [
  'cp01.prepare-before-commit',
  'cp04.after-settle',
  'cp07.concurrent-prepare.race',
  'gate.every-cell',
  'gate.read-failure-refuses',
  'recovery.operator-resolution',
  'replay.inputs-that-count',
  'digest.persisted-form',
  'sweep.run-terminal.every-write',
];

/** Each bug copy and the scenario of the default run that catches it (seed 1). */
const CAUGHT: ReadonlyArray<readonly [bug: string, scenario: string]> = [
  ['settle-write-behind', 'cp04.after-settle'],
  ['gate-ignores-ambiguous', 'gate.every-cell'],
  ['digest-key-order', 'digest.persisted-form'],
  ['secret-temp-file', 'secrets.args-never-on-disk'],
  ['discard-blocks-rerun', 'recovery.operator-resolution'],
  ['terminal-sweeps-unresolved', 'cp11.retention.terminal-keeps-unresolved'],
];

describe('a journal written from the documents only', () => {
  it(`passes ${CONFORMANT.length} scenarios`, { timeout: 240_000 }, async () => {
    const report = await run(null, CONFORMANT);
    expect(verdicts(report)).toEqual(Object.fromEntries(CONFORMANT.map((id) => [id, 'passed'])));
    expect(report.verdict).toBe('conformant');
  });

  for (const [bug, scenario] of CAUGHT) {
    it(`with the bug ${bug} fails ${scenario}`, { timeout: 120_000 }, async () => {
      const report = await run(bug, [scenario]);
      expect(report.scenarios.map((s) => [s.id, s.verdict])).toEqual([[scenario, 'failed']]);
      expect(report.verdict).toBe('nonconformant');
    });
  }
});
