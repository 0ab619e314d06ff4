// Session disclosure classes found by journals written from the spec alone: a turn's status decides, whatever else it is.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { defaultCall, rows, snapshotAfter, snapshotBefore } from '../support.js';
import { resumeSession, runTurn, sessionAddress } from '../../harness/engine/session-engine.js';
import { expectDisclosures, type ExpectedDisclosure } from '../disclosures.js';

const SID = 'sess-blind';

export const blindSessions: Scenario[] = [
  defineScenario({
    id: 'disclosure.compacted-incomplete-turns',
    title: 'A compacted turn that did not complete still discloses its committed effects',
    spec: 'effect-journal §8, §12 session acceptance',
    tags: ['session', 'disclosure'],
    needs: ['sessions'],
    description:
      'Three turns, each with a committed effect and each compacted afterwards: turn 0 aborted, turn 1 errored, turn 2 completed. ' +
      'Compaction changes how much of a turn the transcript keeps, never whether its exchange completed: the first resume must ' +
      'disclose the effects of turns 0 and 1 (conservatively) and stay silent on turn 2; the second resume, after the sweep, discloses nothing.',
    asserts: ['the aborted and the errored compacted turns are disclosed', 'the completed compacted turn is silent', 'nothing repeats after the sweep', 'the sweep leaves no row'],
    async trial(t) {
      const c = await t.driver();
      await runTurn(t, c, SID, { turn: 0, calls: [defaultCall()], status: 'aborted', compacted: true });
      await runTurn(t, c, SID, { turn: 1, calls: [defaultCall()], status: 'errored', compacted: true });
      await runTurn(t, c, SID, { turn: 2, calls: [defaultCall()], status: 'completed', compacted: true });
      await snapshotBefore(t, c);
      const first = await resumeSession(t, c, SID);
      const second = await resumeSession(t, c, SID);
      const incomplete: ExpectedDisclosure[] = [0, 1].map((turn): ExpectedDisclosure => `${sessionAddress(turn, 0, 'http_request')}:conservative`);
      expectDisclosures(t, 'first resume disclosures', incomplete, first.disclosed);
      expectDisclosures(t, 'second resume disclosures', [], second.disclosed);
      t.expect('rows left after the sweep', 0, (await rows(c)).length);
      await snapshotAfter(t, c);
    },
  }),
];
