// Scale: a node with hundreds of effects and a run with about a thousand rows, where the one row that decides is the
// last; and a result of megabytes replayed whole after a restart. Journals that read a page, a chunk or a prefix fail.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { defaultPrepare, defaultCall, rows, seedRows, snapshotAfter, snapshotBefore } from '../support.js';
import { expectedDigest } from '../digest/persisted-form.js';
import { deriveProjections, type OutputMappingConfig } from '../../harness/engine/projections.js';
import { proceeded } from '../../harness/engine/setup-verdict.js';
import { jsonEqual } from '../../harness/model/projection.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';

/**
 * Effects of the wide node: past 1000 and 1024, where a page, a LIMIT or a batch commonly stops (a gate reading the
 * first 500 or 1000 rows of a node passed 300). The run adds three narrow nodes.
 */
export const WIDE_NODE = 1100;
export const NARROW_NODE = 100;
export const RUN_ROWS = WIDE_NODE + 3 * NARROW_NODE;
/** The replayed model value's size in UTF-16 units: past the 1 MiB a column, page or buffer limit commonly sits at. */
export const BIG_RESULT = 1280 * 1024;

const MAPPING: OutputMappingConfig = { field: 'tail', bound: 48 };
const RESULT = deriveProjections('http_request', '{"tail":"row"}', MAPPING);

export const gateScale: Scenario[] = [
  defineScenario({
    id: 'gate.scale.thousand-rows',
    title: `A node with ${WIDE_NODE} effects whose last is unresolved is refused; the terminal sweep of a ${RUN_ROWS}-row run takes every committed row`,
    spec: 'effect-journal §4 ("the engine reads every prior non-benign effect record for that correlation"), §9 (a run\'s committed rows go when the run reaches a terminal; unresolved rows are never swept)',
    tags: ['run', 'gate', 'retention', 'scale'],
    needs: [],
    description:
      `One run of ${RUN_ROWS} tier-3 effects: a wide node of ${WIDE_NODE} and three of ${NARROW_NODE}. Every effect is committed with a retained result (planted in one seed where the journal can seed rows) except the last slot of the first node, a real prepare left unresolved. ` +
      `The gate of that node must read all ${WIDE_NODE} rows and refuse on the last (a gate reading a page or a LIMIT passes); the gate of a narrow node, every effect committed, passes over all of its rows. ` +
      `The listing holds all ${RUN_ROWS} rows; the run\'s terminal sweep deletes all ${RUN_ROWS - 1} committed rows (one chunk or page is not enough) and keeps the unresolved one.`,
    asserts: ['the gate of the node whose last effect is unresolved refuses and lists every row', 'the gate of a full node passes and lists every row', `the listing holds all ${RUN_ROWS} rows`, `the terminal sweep deletes all ${RUN_ROWS - 1} committed rows and leaves the unresolved one`],
    async trial(t) {
      const client = await t.driver();
      const runId = t.rng.id('run');
      const nodes = ['wide-0', 'wide-1', 'wide-2', 'wide-3'];
      const open = await fillRun(t, client, runId, nodes);
      const listed = (await rows(client)).filter((r) => r.scope.kind === 'run' && r.scope.runId === runId);
      t.expect('rows of the run in the listing: committed, unresolved', [RUN_ROWS - 1, 1], [listed.filter((r) => r.state === 'committed').length, listed.filter((r) => r.state !== 'committed').length]);
      const blocked = await client.op('gate', { scope: { kind: 'run', runId, nodeId: nodes[0]! } });
      t.expect(`gate of the node whose slot ${WIDE_NODE - 1} is unresolved: decision, rows listed, the unresolved one among them`, ['refuse', WIDE_NODE, true], [blocked.decision, blocked.effects.length, blocked.effects.some((e) => e.effectId === open)]);
      const full = await client.op('gate', { scope: { kind: 'run', runId, nodeId: nodes[3]! } });
      t.expect('gate of a node whose every effect committed: decision, rows listed', ['pass', NARROW_NODE], [full.decision, full.effects.length]);
      await snapshotBefore(t, client);
      const swept = await client.op('runTerminal', { runId });
      t.expect('rows the terminal sweep deleted', RUN_ROWS - 1, swept.deleted);
      const left = (await snapshotAfter(t, client)).filter((r) => r.scope.kind === 'run' && r.scope.runId === runId);
      t.expect('rows of the run left, and the unresolved one among them', [1, true], [left.length, left.some((r) => r.effectId === open)]);
    },
  }),
  defineScenario({
    id: 'replay.scale.megabyte-result',
    title: 'A committed result of more than a mebibyte replays whole after a restart',
    spec: 'effect-journal §4 (replay re-delivers "the projections the original produced ... RECORDED, not re-derived"), §11 ("a run row retains its bounded result until the terminal sweep")',
    tags: ['run', 'replay', 'scale'],
    needs: [],
    description:
      `A node whose output mapping bounds the model value at ${BIG_RESULT} characters commits an effect whose recorded result carries a model value of that size and an output-mapping result of 256 KiB. ` +
      'A restarted driver is asked the same call: it must replay the recorded result exactly (a journal that cuts, compresses lossily or pages a large value re-delivers something else).',
    asserts: ['the call after a restart replays', 'the replayed result equals the recorded one, every character'],
    async trial(t) {
      const mapping: OutputMappingConfig = { field: 'tail', bound: BIG_RESULT + 16 };
      const body = bigText(t, BIG_RESULT);
      const result = deriveProjections('http_request', JSON.stringify({ tail: body.slice(0, 256 * 1024), pad: body.slice(256 * 1024, BIG_RESULT - 64) }), mapping);
      const runId = t.rng.id('run');
      const params = () => defaultPrepare(t, runId, 'node-a', defaultCall(), mapping);
      const first = await t.driver();
      const v = await first.op('prepare', params());
      await first.op('settle', { effectId: proceeded(v, 'the large effect'), state: 'committed', result });
      await first.close();
      const next = await t.driver();
      await snapshotBefore(t, next);
      const again = await next.op('prepare', params());
      const got = again.verdict === 'replay' ? again.result : null;
      t.expect('the call after a restart', 'replay', again.verdict);
      t.expect('replayed model value: length, and equal to the recorded one', [result.modelValue.length, true], [got?.modelValue.length ?? null, got?.modelValue === result.modelValue]);
      t.check('the replayed result equals the recorded one (all four projections)', 'equal', got === null ? 'no replay' : jsonEqual(got, result) ? 'equal' : 'different', got !== null && jsonEqual(got, result));
      await snapshotAfter(t, next);
    },
  }),
];

// Commits every effect of every node, leaving the last slot of the first node prepared; returns that row's id. The
// committed rows are planted in one seed where the journal can (the reads are what is under test, and a thousand
// prepare/settle pairs cost seconds); the unresolved row is always a real prepare.
async function fillRun(t: TrialContext, client: JournalClient, runId: string, nodes: readonly string[]): Promise<string> {
  const committed = nodes.flatMap((nodeId, n) => Array.from({ length: n === 0 ? WIDE_NODE - 1 : NARROW_NODE }, (_, slot) => ({ nodeId, slot })));
  if (t.capabilities.seeding) {
    await seedRows(t, client, committed.map(({ nodeId, slot }) => {
      const call = callAt(slot);
      return { scope: { kind: 'run', runId, nodeId }, slot, toolId: call.toolId, tier: call.tier, state: 'committed', argsDigest: expectedDigest(call.args, call.secretArgKeys), callId: t.rng.id('call'), resultJson: JSON.stringify(RESULT) };
    }));
  } else {
    for (const { nodeId, slot } of committed) {
      const v = await client.op('prepare', prepareAt(t, runId, nodeId, slot));
      await client.op('settle', { effectId: proceeded(v, `${nodeId} slot ${slot}`), state: 'committed', result: RESULT });
    }
  }
  return proceeded(await client.op('prepare', prepareAt(t, runId, nodes[0]!, WIDE_NODE - 1)), `${nodes[0]} slot ${WIDE_NODE - 1}`);
}

const callAt = (slot: number) => defaultCall({ slot, args: { ...defaultCall().args, line: slot } });

function prepareAt(t: TrialContext, runId: string, nodeId: string, slot: number) {
  return defaultPrepare(t, runId, nodeId, callAt(slot), MAPPING);
}

// Seeded text of short words: incompressible enough that a journal cannot keep it small by accident.
function bigText(t: TrialContext, length: number): string {
  const words: string[] = [];
  let n = 0;
  while (n < length) {
    const w = t.rng.id('w');
    words.push(w);
    n += w.length + 1;
  }
  return words.join(' ').slice(0, length);
}
