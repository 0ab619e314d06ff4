// Retention classes found by journals written from the spec alone: a run id is compared as it is, never folded.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { crashDuringRun, nodeRows, singleNodeRun, snapshotAfter, snapshotBefore } from '../support.js';
import { resumeRun, startRun } from '../../harness/engine/run-engine.js';

// Ids a journal that folds case, normalises Unicode or trims whitespace would take for the resumable run's own.
const SIBLINGS: ReadonlyArray<{ name: string; of: (id: string) => string }> = [
  // SQLite's NOCASE folds ASCII only; a JavaScript or ICU fold takes the é too.
  { name: 'ASCII upper case', of: (id) => id.replace(/[a-z]/g, (c) => c.toUpperCase()) },
  { name: 'upper case', of: (id) => id.toUpperCase() },
  { name: 'NFD', of: (id) => id.normalize('NFD') },
  { name: 'trailing space', of: (id) => `${id} ` },
  // Ids that are patterns matching R's: a sweep matching with LIKE, GLOB or a regular expression instead of equality.
  { name: 'LIKE _ for its last character', of: (id) => `${id.slice(0, -1)}_` },
  { name: 'LIKE % for its end', of: (id) => `${id.slice(0, 4)}%` },
  { name: 'GLOB ? for its last character', of: (id) => `${id.slice(0, -1)}?` },
  { name: 'GLOB * for its end', of: (id) => `${id.slice(0, 4)}*` },
  { name: 'regular expression .* for its end', of: (id) => `${id.slice(0, 4)}.*` },
];

export const blindRetention: Scenario[] = [
  defineScenario({
    id: 'retention.sibling-run-ids',
    title: 'The terminal of a run whose id differs only in case, normal form or a trailing space, or is a pattern matching it, sweeps none of a resumable run\'s rows',
    spec: 'effect-journal §9, §4 (the scope matches exactly)',
    tags: ['run', 'retention'],
    needs: [],
    description:
      'Run R (its id ends in a precomposed é) is SIGKILLed after its effect settled committed, before node:completed. Runs whose ids are R\'s ' +
      'upper-cased (ASCII letters only, then all), in NFD, with a trailing space, and patterns that match it (LIKE _ and %, GLOB ? and *, a regular expression\'s .*) then complete, and their terminals sweep. R is resumable: its committed row must survive and ' +
      'the re-run must replay it rather than execute the effect again.',
    asserts: ['R\'s committed row survives the sibling terminals', 'the resumed R replays', 'every effect written once'],
    async trial(t) {
      const resumable = singleNodeRun(t);
      const run = { ...resumable, runId: `${resumable.runId}-caf\u00e9` };
      await crashDuringRun(t, run, { kind: 'boundary', boundary: 'after-settle' });
      const client = await t.driver();
      for (const sibling of SIBLINGS) {
        const out = await startRun(t, client, { ...singleNodeRun(t), runId: sibling.of(run.runId) });
        t.expect(`${sibling.name} sibling run status`, 'completed', out.status);
      }
      const before = await snapshotBefore(t, client);
      t.expect('R\'s row after the sibling terminals', 'committed', nodeRows(before, run.runId, 'node-a')[0]?.state);
      const out = await resumeRun(t, client, run);
      t.expect('R\'s re-run prepare verdict', 'replay', out.verdicts[0]?.verdict.verdict);
      t.expect('physical writes', 1 + SIBLINGS.length, t.world.counts().physicalWrites);
      t.expect('duplicate writes', 0, t.world.counts().duplicateWrites);
      await snapshotAfter(t, client);
    },
  }),
];
