// Retention classes found by journals written from the spec alone: a run id is compared as it is, never folded.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { crashDuringRun, defaultCall, nodeRows, rows, singleNodeRun, snapshotAfter, snapshotBefore } from '../support.js';
import { resumeRun, startRun } from '../../harness/engine/run-engine.js';
import { resumeSession, runTurn } from '../../harness/engine/session-engine.js';

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
  defineScenario({
    id: 'retention.sibling-session-ids',
    title: 'A session read and sweep take only their own session\'s rows, never those of a session whose id differs only in case, normal form or a trailing space, or is a pattern matching it',
    spec: 'effect-journal §8, §9 (the session\'s own rows, captured exactly)',
    tags: ['session', 'retention', 'disclosure'],
    needs: ['sessions'],
    description:
      'Session S (its id ends in a precomposed é) commits an effect in a completed turn. Sessions whose ids are S\'s upper-cased (ASCII letters only, then all), in NFD, with a ' +
      'trailing space, and patterns that match it (LIKE, GLOB, a regular expression) each commit an effect in an errored turn, so their own reads disclose and capture it. ' +
      'S then resumes: its read must list and capture only S\'s row and disclose nothing, its sweep must leave every sibling\'s row; each sibling\'s own read then discloses its row once.',
    asserts: ['S\'s read lists and captures only S\'s rows and discloses nothing', 'S\'s sweep leaves every sibling\'s row', 'each sibling\'s read discloses its own row'],
    async trial(t) {
      const own = `sess-caf\u00e9-${t.rng.id('s')}`;
      const client = await t.driver();
      await runTurn(t, client, own, { turn: 0, calls: [defaultCall()] });
      const siblings = SIBLINGS.map((sibling) => ({ name: sibling.name, id: sibling.of(own) }));
      for (const sibling of siblings) await runTurn(t, client, sibling.id, { turn: 0, calls: [defaultCall()], status: 'errored' });
      await snapshotBefore(t, client);
      const resumed = await resumeSession(t, client, own);
      const read = resumed.read;
      t.expect('sessions of the rows S\'s read lists', [own], [...new Set((read?.effects ?? []).map((e) => (e.scope.kind === 'session' ? e.scope.sessionId : `run ${e.scope.runId}`)))]);
      t.expect('sessions of the rows S\'s read captures', [own], [...new Set((read?.captured ?? []).map((c) => c.sessionId))]);
      t.expect('disclosures of S\'s read (its one turn completed)', 0, read?.disclosures.length ?? null);
      const left = await rows(client);
      for (const sibling of siblings) {
        t.expect(`${sibling.name} sibling's committed rows after S's sweep`, 1, left.filter((r) => r.scope.kind === 'session' && r.scope.sessionId === sibling.id && r.state === 'committed').length);
        const theirs = await resumeSession(t, client, sibling.id);
        t.expect(`${sibling.name} sibling's read: its own row, disclosed`, { listed: 1, disclosed: 1 }, { listed: theirs.read?.effects.length ?? null, disclosed: theirs.read?.disclosures.length ?? null });
      }
      await snapshotAfter(t, client);
    },
  }),
];
