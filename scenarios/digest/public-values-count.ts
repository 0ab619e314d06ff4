// §11's projection seen through replay: public values that look like secrets, special keys, nulls, array order,
// normalization forms and close numbers each make another call; every credential form changes nothing but the mask.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { defaultPrepare, canary, defaultCall, snapshotAfter, snapshotBefore } from '../support.js';
import { DEFAULT_MAPPING, deriveProjections } from '../../harness/engine/projections.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';
import { jsonEqual } from '../../harness/model/projection.js';
import { CREDENTIAL_PAIRS, PUBLIC_PAIRS, type DigestPair } from './pairs.js';

export const digestPublicValues: Scenario[] = [
  defineScenario({
    id: 'digest.public-values-count',
    title: 'Public values a journal might mask, drop, reorder, normalize or print alike each make a different call: the replay is refused',
    spec: 'effect-journal §11 ("unrecognized public fields and ordinary arguments still contribute their complete surviving values", "nested own enumerable data keys, including __proto__, remain data members", canonical JSON), §4 (a replay needs the args digest to match)',
    tags: ['run', 'digest', 'replay', 'refusal'],
    needs: [],
    description:
      `${PUBLIC_PAIRS.length} pairs of public argument sets, each committed once under its own node with a retained result and prepared again with the other set: ` +
      'long random-looking hex, base64 and UUID values (not secrets: no key, scheme or flag says so), __proto__ and constructor members, a null member against an absent one, ' +
      'the order inside arrays, a string in NFC against NFD, numbers that print alike at 15 digits, an empty object against an empty array, key case (also beside a declared secret key of another case), whitespace, a change past 64 KiB. ' +
      'Each second set asks another question, so it must be refused; one pair differing only in key order is the same call and must replay (a journal refusing everything fails it).',
    asserts: PUBLIC_PAIRS.map((p) => `${p.name}: the second call ${p.same ? 'replays' : 'is refused'}`),
    async trial(t) {
      await replayPairs(t, PUBLIC_PAIRS);
    },
  }),
  defineScenario({
    id: 'digest.credential-forms-fixed',
    title: 'Every credential form §11 names, in a fixed workload: a credential-only change replays, the public value beside it refuses',
    spec: 'effect-journal §11 (credential flags "--token value" and "--token=value", the -p port exception, quoted values with escapes, anchored Bearer/Basic/Token schemes with no casing retained, URL userinfo through the last @, opaque query values past 512 characters, structural credential keys; "raw credential bytes are never added to the digest to distinguish calls"), §4',
    tags: ['run', 'digest', 'replay', 'secrets'],
    needs: [],
    description:
      'For each form a committed effect holds a canary where §11 masks it. The same identity prepared again with another canary must replay (the projection is the same: a digest that moved would be a credential equality oracle); ' +
      'prepared with the public value beside the credential changed it must be refused (the mask stops where the credential does). -p followed by a port keeps the port public; a scheme\'s casing does not survive but its label does.',
    asserts: CREDENTIAL_PAIRS.map((p) => `${p.name}: the second call ${p.same ? 'replays' : 'is refused'}`),
    async trial(t) {
      await replayPairs(t, CREDENTIAL_PAIRS);
    },
  }),
];

// Commits side a of every pair (its own node, a retained result), then asks side b of each under the same identity.
async function replayPairs(t: TrialContext, pairs: readonly DigestPair[]): Promise<void> {
  const client = await t.driver();
  const runId = t.rng.id('run');
  const results = new Map<number, ReturnType<typeof deriveProjections>>();
  for (const [i, pair] of pairs.entries()) {
    const verdict = await client.op('prepare', prepareOf(t, runId, i, pair.args('a', canary(t)), pair.secretArgKeys));
    if (!t.check(`${pair.name}: the first prepare of a fresh identity proceeds`, 'proceed', verdict.verdict, verdict.verdict === 'proceed')) continue;
    if (verdict.verdict !== 'proceed') continue;
    const result = deriveProjections('http_request', `{"tail":"pair ${i}"}`, DEFAULT_MAPPING);
    await client.op('settle', { effectId: verdict.effectId, state: 'committed', result });
    results.set(i, result);
  }
  await snapshotBefore(t, client);
  for (const [i, pair] of pairs.entries()) {
    const recorded = results.get(i);
    if (recorded === undefined) continue;
    await ask(t, client, pair, recorded, prepareOf(t, runId, i, pair.args('b', canary(t)), pair.secretArgKeys));
  }
  await snapshotAfter(t, client);
}

async function ask(t: TrialContext, client: JournalClient, pair: DigestPair, recorded: unknown, params: ReturnType<typeof prepareOf>): Promise<void> {
  const answer = await client.op('prepare', params);
  const got = answer.verdict === 'replay' ? (jsonEqual(answer.result, recorded) ? 'replay' : 'replay of another result') : answer.verdict;
  t.expect(`${pair.name}: the second call`, pair.same ? 'replay' : 'refuse', got);
}

// The prepare of pair i: its own node of one run, tier 3, nothing declared secret unless the pair says (every other
// credential must be recognized).
function prepareOf(t: TrialContext, runId: string, i: number, args: Record<string, unknown>, secretArgKeys: readonly string[] = []) {
  const call = defaultCall({ args, secretArgKeys: [...secretArgKeys] });
  return defaultPrepare(t, runId, `pair-${i}`, call);
}
