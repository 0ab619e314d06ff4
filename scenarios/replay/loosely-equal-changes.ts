// Replay classes found by journals written from the spec alone: a change a language's value equality misses is still a change.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { defaultPrepare, snapshotAfter, snapshotBefore } from '../support.js';
import { DEFAULT_MAPPING, deriveProjections } from '../../harness/engine/projections.js';
import { proceeded } from '../../harness/engine/setup-verdict.js';
import type { OpParams } from '../../shared/protocol/schemas.js';

type Prepare = OpParams<'prepare'>;
type Members = Record<string, unknown>;

// Members whose values Python's == (True == 1, False == 0), JavaScript's == ('7' == 7, '' == 0, [1] == 1) or a
// string-keyed comparison ('48' for 48) takes for another JSON value.
const MAPPING: Members = { ...DEFAULT_MAPPING, scale: 1, strict: false, offset: 0, label: '1', pad: '' };
const ARGS: Members = { method: 'POST', url: 'https://orders.invalid/api', amount: 1, urgent: false, retries: 0, code: '7', note: '' };
const LOOSE: ReadonlyArray<readonly [string, unknown]> = [
  ['scale', true], ['strict', 0], ['offset', false], ['label', 1], ['pad', 0], ['bound', '48'], ['scale', [1]],
];
const LOOSE_ARGS: ReadonlyArray<readonly [string, unknown]> = [
  ['amount', true], ['urgent', 0], ['retries', false], ['code', 7], ['note', 0], ['amount', [1]],
];
const RESULT = deriveProjections('http_request', '{"echo":"loose","tail":"END"}', DEFAULT_MAPPING);

export const blind2Replay: Scenario[] = [
  defineScenario({
    id: 'replay.loosely-equal-changes-refused',
    title: 'A changed mapping or argument value that a language\'s value equality takes for the old one (1 and true, "7" and 7) refuses the replay',
    spec: 'effect-journal §4 (a replay is refused when the args digest or the output-mapping configuration differs), §11 (canonical JSON of the projection)',
    tags: ['run', 'replay', 'refusal'],
    needs: [],
    description:
      'A committed effect with a retained result ran under an output mapping whose members are 1, false, 0, "1", "" and 48, with public arguments 1, false, 0, "7" and "". ' +
      'The same identity is prepared again with one of those values replaced by another JSON value that Python\'s == (True == 1, False == 0), JavaScript\'s == ("7" == 7, ' +
      '"" == 0, [1] == 1) or a comparison of stringified values takes for it. Each is another configuration or another question: refused, never replayed. The unchanged call ' +
      'then still replays, so the refusals are the changes\' and not a journal that refuses everything.',
    asserts: ['each loosely equal change of a mapping member refuses', 'each loosely equal change of a public argument refuses', 'the unchanged call replays the recorded result'],
    async trial(t) {
      const client = await t.driver();
      const base: Prepare = { ...defaultPrepare(t, t.rng.id('run'), 'node-a'), args: { ...ARGS, apiToken: 'tok-loose' }, outputMappingConfig: MAPPING };
      const v = await client.op('prepare', base);
      await client.op('settle', { effectId: proceeded(v, 'the committed effect'), state: 'committed', result: RESULT });
      await snapshotBefore(t, client);
      const again = (p: Prepare) => ({ ...p, audit: { ...p.audit, callId: t.rng.id('call') } });
      for (const [key, value] of LOOSE) {
        const answer = await client.op('prepare', again({ ...base, outputMappingConfig: { ...MAPPING, [key]: value } }));
        t.expect(`mapping member ${key} ${JSON.stringify(MAPPING[key])} → ${JSON.stringify(value)}: prepare verdict`, 'refuse', answer.verdict);
      }
      for (const [key, value] of LOOSE_ARGS) {
        const answer = await client.op('prepare', again({ ...base, args: { ...base.args, [key]: value } }));
        t.expect(`public argument ${key} ${JSON.stringify(ARGS[key])} → ${JSON.stringify(value)}: prepare verdict`, 'refuse', answer.verdict);
      }
      const same = await client.op('prepare', again(base));
      t.expect('the unchanged call after the refusals: verdict and result', ['replay', RESULT], [same.verdict, same.verdict === 'replay' ? same.result : null]);
      await snapshotAfter(t, client);
    },
  }),
];
