// §11's persisted args digest, observed from outside: its exact value where the projection is unambiguous, and legacy forms refused.
import { createHash } from 'node:crypto';
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { callPrepare, defaultCall, runEffectKey, seedRows, snapshotAfter, snapshotBefore } from '../support.js';
import { resumeRun } from '../../harness/engine/run-engine.js';
import type { ToolCall } from '../../harness/engine/model.js';
import { expectDigest } from './digest-check.js';

// Arguments whose redacted projection has one reading: no credential-shaped key, scheme, URL userinfo, query or flag,
// so the only redaction is dropping the declared secret keys. The expectation needs no redactor of its own.
const WORKLOADS: ReadonlyArray<Pick<ToolCall, 'args' | 'secretArgKeys'>> = [
  { args: defaultCall().args, secretArgKeys: defaultCall().secretArgKeys },
  { args: { note: 'zürich café ☕ "quoted"', count: 3, ratio: 12.5, flags: [3, 1, 2], nested: { b: true, a: null, z: [] } }, secretArgKeys: [] },
  { args: { zeta: 1, alpha: { mid: 'x', beta: 'w' }, Upper: 'case', _under: 0 }, secretArgKeys: [] },
  { args: { region: 'eu-west', pin: '4711', pinHint: 'four digits' }, secretArgKeys: ['pin'] },
];

// What an older writer persisted: an unversioned digest and the v2:, v3: and v4: projections (§11).
const LEGACY_PREFIXES = ['', 'v2:', 'v3:', 'v4:'] as const;

export const journalDigest: Scenario[] = [
  defineScenario({
    id: 'digest.persisted-form',
    title: 'The persisted args digest is v5: followed by the SHA-256 hex of the canonical redacted projection',
    spec: 'effect-journal §11 ("the current persisted form is v5: followed by the SHA-256 hex digest")',
    tags: ['run', 'digest'],
    needs: [],
    description:
      'Prepares one effect per workload whose redacted projection is unambiguous (declared secret keys dropped, nothing credential-shaped), then reads the rows back. The harness computes each digest itself: SHA-256 over canonical JSON (sorted keys, no whitespace) of the arguments without their declared secret keys, prefixed with v5:. Every other scenario checks at least the form of every row it sees.',
    asserts: ['each row\'s argsDigest equals v5: + SHA-256 hex of the canonical projection', 'a declared secret key does not contribute to the digest'],
    async trial(t) {
      const client = await t.driver();
      const runId = t.rng.id('run');
      const ids: string[] = [];
      for (const [i, w] of WORKLOADS.entries()) {
        const call = defaultCall({ args: w.args, secretArgKeys: w.secretArgKeys });
        const verdict = await client.op('prepare', callPrepare(t, { kind: 'run', runId, nodeId: `node-${i}`, attempt: 1 }, call));
        ids.push(verdict.verdict === 'proceed' ? verdict.effectId : `refused:${verdict.verdict}`);
      }
      const all = await snapshotAfter(t, client);
      for (const [i, w] of WORKLOADS.entries()) {
        const row = all.find((r) => r.effectId === ids[i]);
        await expectDigest(t, client, `argsDigest of workload ${i + 1}`, expectedProjection(w.args, w.secretArgKeys), w, row?.argsDigest.toLowerCase() ?? null);
      }
    },
  }),
  defineScenario({
    id: 'digest.legacy-refused',
    title: 'A row with an unversioned, v2:, v3: or v4: digest refuses the matching prepare, even for unchanged arguments',
    spec: 'effect-journal §11 ("every unversioned, v2:, v3: or v4: legacy row refuses matching prepare")',
    tags: ['run', 'digest', 'refusal'],
    needs: ['seeding'],
    description:
      'For each legacy form an older writer left a committed run row with a retained result, its digest in that form over the very projection the re-run prepares. Resuming the run must refuse rather than replay or re-execute: the original projection cannot be proven from a legacy digest.',
    asserts: ['each matching prepare is refused', 'nothing is replayed', 'no physical write'],
    async trial(t) {
      const client = await t.driver();
      const call = defaultCall();
      const hex = expectedDigest(call.args, call.secretArgKeys).slice('v5:'.length);
      const runs = LEGACY_PREFIXES.map((prefix) => ({ prefix, run: { runId: t.rng.id('run'), nodes: [{ nodeId: 'node-a', calls: [call] }] } }));
      const result = JSON.stringify({ modelValue: 'legacy', truncated: false, summary: 'legacy result', outputMappingResult: 'legacy' });
      await seedRows(t, client, runs.map(({ prefix, run }) => ({
        scope: { kind: 'run', runId: run.runId, nodeId: 'node-a' }, slot: call.slot, toolId: call.toolId, tier: call.tier, state: 'committed', argsDigest: `${prefix}${hex}`, callId: t.rng.id('call'), resultJson: result,
      })));
      await snapshotBefore(t, client);
      for (const { prefix, run } of runs) {
        const out = await resumeRun(t, client, run);
        const verdict = out.verdicts[0]?.verdict;
        const answer = out.gates[0]?.decision === 'refuse' ? 'refused by the gate' : verdict === undefined ? 'no prepare' : verdict.verdict === 'refuse' ? 'refused by prepare' : verdict.verdict;
        t.check(`re-run over a ${prefix === '' ? 'unversioned' : prefix} row`, 'refused (by the gate or the prepare)', answer, answer.startsWith('refused'));
        t.expect(`writes after a ${prefix === '' ? 'unversioned' : prefix} row`, 0, t.world.writesFor(runEffectKey(run, 'node-a', call)));
      }
      t.expect('replays', 0, t.tally.replays);
      await snapshotAfter(t, client);
    },
  }),
];

/** v5: + SHA-256 hex of canonical JSON of the arguments without their declared secret keys, computed here, not by any journal. */
export function expectedDigest(args: Readonly<Record<string, unknown>>, secretArgKeys: readonly string[]): string {
  return expectedProjection(args, secretArgKeys).digest;
}

/** The canonical JSON expectedDigest hashes, with the digest: what a mismatch shows beside the journal's own projection. */
export function expectedProjection(args: Readonly<Record<string, unknown>>, secretArgKeys: readonly string[]): { digest: string; canonical: string } {
  const projection = Object.fromEntries(Object.entries(args).filter(([k]) => !secretArgKeys.includes(k)));
  const text = canonical(projection);
  return { digest: `v5:${createHash('sha256').update(text, 'utf8').digest('hex')}`, canonical: text };
}

// Sorted keys (by UTF-16 code unit), no whitespace: deliberately not the harness's or any journal's serializer.
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj).sort().map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
