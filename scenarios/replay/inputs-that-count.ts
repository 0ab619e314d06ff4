// §4 replay and refusal as metamorphic relations over the re-run's inputs: every change the contract says matters
// (a public value, its type, a key added or removed, nested values and array order; the output-mapping configuration,
// including absent against present) refuses, every time and after a restart, and leaves the record as it was; what
// must not matter (key order, a rotated secret) replays.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { snapshotAfter, snapshotBefore } from '../support.js';
import { changedRows, committedRow, expectVerdict, killAndRestart, resultFor, rowsById, runPrepare, verdictWord, type Prepare } from '../metamorphic-support.js';
import { expectPrepare, type AllowedVerdict } from '../../harness/model/gate-table.js';
import { sameCall } from '../../harness/model/projection.js';
import { jsonEqual } from '../../harness/model/projection.js';
import type { EffectRow } from '../../shared/protocol/schemas.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';

type Variant = readonly [what: string, base: 'mapped' | 'unmapped', vary: (p: Prepare) => Prepare];

export const metamorphicRefusals: Scenario[] = [
  defineScenario({
    id: 'replay.inputs-that-count',
    title: 'Every changed input the contract counts refuses the replay, each time and after a restart, and changes nothing; key order and secrets do not count',
    spec: 'effect-journal §4 (args digest and output-mapping configuration decide replay; "absent and present count as different"), §11, §14',
    tags: ['run', 'replay', 'digest', 'metamorphic'],
    needs: [],
    description:
      'Two committed effects with retained results, one run under an output mapping and one without any. The same identity is prepared again with one input changed at a time: a public value, its JSON type, a public key added or removed, a nested value, the order of an array; the mapping edited, extended, removed, replaced by an empty one or by null, and a mapping added where there was none. Each must be refused (the verdict the model allows), the same way when asked a second time and after a SIGKILL and restart, and must leave every row\'s record (state, digest, key, retained result) as it was. Reordered object keys, a reordered mapping and a rotated declared secret must still replay the recorded result.',
    asserts: [
      'each counted change is refused with an allowed code, on every ask and after a restart',
      'a refused prepare changes no row\'s record',
      'key order and a rotated secret replay the recorded result, and so does the unchanged call after all the refusals',
    ],
    async trial(t) {
      let client = await t.driver();
      const runId = t.rng.id('run');
      const mapped = runPrepare(t, runId, 'mapped', { args: { method: 'POST', url: 'https://orders.invalid/api', amount: 42, lines: [{ sku: 'a-1', qty: 2 }, { sku: 'b-2', qty: 1 }], meta: { channel: 'web', retry: false }, apiToken: 'tok-one' } });
      const { outputMappingConfig: _none, ...unmapped } = runPrepare(t, runId, 'unmapped');
      await committedRow(client, mapped, resultFor('mapped'), 'the mapped effect');
      await committedRow(client, unmapped, resultFor('unmapped'), 'the effect without a mapping');
      const bases = { mapped, unmapped } as const;
      const answers = new Map<string, string>();
      const ask = async (c: JournalClient, when: string, first: boolean) => {
        for (const [what, base, vary] of VARIANTS) {
          const p = withCall(t, vary(bases[base]));
          const before = await records(c);
          const v = await c.op('prepare', p);
          const name = `${when}: ${what}`;
          expectVerdict(t, name, allowed(bases[base], p), v, resultFor(base));
          t.expect(`${name}: rows whose record changed`, [], changedRows(before, await records(c)));
          if (first) answers.set(what, verdictWord(v));
          else t.expect(`${name}: the same answer as the first time`, answers.get(what), verdictWord(v));
        }
        for (const base of ['mapped', 'unmapped'] as const) expectVerdict(t, `${when}: the unchanged ${base} call`, [{ verdict: 'replay' }], await c.op('prepare', withCall(t, bases[base])), resultFor(base));
      };
      await ask(client, 'first ask', true);
      await ask(client, 'second ask', false);
      await snapshotBefore(t, client);
      client = await killAndRestart(t, client);
      await ask(client, 'after a SIGKILL and restart', false);
      await snapshotAfter(t, client);
    },
  }),
];

const args = (p: Prepare) => p.args as Record<string, unknown> & { lines: Array<Record<string, unknown>>; meta: Record<string, unknown> };
const reordered = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).reverse());

// One input changed at a time; the model says which of them count.
const VARIANTS: readonly Variant[] = [
  ['a public value changed', 'mapped', (p) => ({ ...p, args: { ...p.args, amount: 43 } })],
  ['a public value of another JSON type (42 → "42")', 'mapped', (p) => ({ ...p, args: { ...p.args, amount: '42' } })],
  ['a public key added', 'mapped', (p) => ({ ...p, args: { ...p.args, note: 'rush' } })],
  ['a public key removed', 'mapped', (p) => ({ ...p, args: Object.fromEntries(Object.entries(p.args).filter(([k]) => k !== 'meta')) })],
  ['a nested value changed', 'mapped', (p) => ({ ...p, args: { ...p.args, meta: { ...args(p).meta, retry: true } } })],
  ['array elements reordered', 'mapped', (p) => ({ ...p, args: { ...p.args, lines: [...args(p).lines].reverse() } })],
  ['the output mapping edited', 'mapped', (p) => ({ ...p, outputMappingConfig: { ...(p.outputMappingConfig as object), bound: 49 } })],
  ['the output mapping extended', 'mapped', (p) => ({ ...p, outputMappingConfig: { ...(p.outputMappingConfig as object), extra: 'x' } })],
  ['the output mapping removed', 'mapped', ({ outputMappingConfig: _gone, ...p }) => p],
  ['the output mapping emptied ({})', 'mapped', (p) => ({ ...p, outputMappingConfig: {} })],
  ['an empty output mapping ({}) where there was none', 'unmapped', (p) => ({ ...p, outputMappingConfig: {} })],
  ['a null output mapping where there was none', 'unmapped', (p) => ({ ...p, outputMappingConfig: null })],
  ['a mapping added where there was none', 'unmapped', (p) => ({ ...p, outputMappingConfig: { field: 'tail', bound: 48 } })],
  ['object keys reordered, nested too', 'mapped', (p) => ({ ...p, args: { ...reordered(p.args), meta: reordered(args(p).meta) } })],
  ['the output mapping\'s keys reordered', 'mapped', (p) => ({ ...p, outputMappingConfig: reordered(p.outputMappingConfig as Record<string, unknown>) })],
  ['the declared secret rotated', 'mapped', (p) => ({ ...p, args: { ...p.args, apiToken: 'tok-two-rotated' } })],
];

// The verdicts §4 allows for `p` at the committed, retained row `base` recorded.
function allowed(base: Prepare, p: Prepare): AllowedVerdict[] {
  return expectPrepare({
    scope: 'run', state: 'committed', resolution: null, legacyDigest: false, retained: true,
    sameArgs: sameCall({ args: base.args, secretArgKeys: base.secretArgKeys }, { args: p.args, secretArgKeys: p.secretArgKeys }),
    sameMapping: jsonEqual(base.outputMappingConfig ?? null, p.outputMappingConfig ?? null) && ('outputMappingConfig' in base) === ('outputMappingConfig' in p),
  });
}

// The re-run is a new occurrence: its own tool-call id.
function withCall(t: TrialContext, p: Prepare): Prepare {
  return { ...p, audit: { ...p.audit, callId: t.rng.id('call') } };
}

// A row's record of its effect: what a refused prepare must never rewrite (its audit occurrence may be the journal's).
async function records(client: JournalClient): Promise<Map<string, Omit<EffectRow, 'attempt'>>> {
  const all = await rowsById(client);
  return new Map([...all].map(([id, { attempt: _audit, ...record }]) => [id, record]));
}
