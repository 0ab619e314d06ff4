// Crash points 4 and 5: killed after the settle (before the tool-result) or after the tool-result (before node:completed).
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { crashDuringRun, defaultCall, originalOutput, singleNodeRun, snapshotAfter, snapshotBefore } from '../support.js';
import { resumeRun } from '../../harness/engine/run-engine.js';
import type { BoundaryName } from '../../harness/engine/crash-plan.js';
import type { NodeScript } from '../../harness/engine/model.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import { DEFAULT_MAPPING, deriveProjections } from '../../harness/engine/projections.js';
import { expectGate, expectPrepare, type AllowedVerdict } from '../../harness/model/gate-table.js';
import { jsonEqual, sameCall } from '../../harness/model/projection.js';
import type { ToolCall } from '../../harness/engine/model.js';

export const cp04cp05: Scenario[] = [
  replayScenario('cp04.after-settle', 'after-settle', 'effect-journal §12.4, §4'),
  replayScenario('cp05.after-tool-result', 'after-tool-result', 'effect-journal §12.5, §4'),
  refusalVariant('cp04.after-settle.public-args-changed', 'the model asks a different question at the slot (a public argument changed)', () => ({
    rerunCalls: [defaultCall({ args: { ...defaultCall().args, amount: 43 } })],
  }), 'args_mismatch'),
  refusalVariant('cp04.after-settle.mapping-changed', 'the node\'s output-mapping configuration was edited in the crash window', () => ({
    rerunMapping: { field: 'receipt', bound: 48 },
  }), 'output_mapping_changed'),
  defineScenario({
    id: 'cp04.after-settle.secret-only-change',
    title: 'After settle: only secret or credential-shaped values changed — still a replay',
    spec: 'effect-journal §12.4, §11, §14',
    tags: ['crash-matrix', 'run', 'replay', 'digest'],
    needs: [],
    description: 'The re-run changes only the declared secret argument and a Bearer credential; the redacted digest is equal, so the stored result is replayed.',
    asserts: ['the re-run prepare replays', 'one physical write', 'node output identical to the original'],
    async trial(t) {
      const original = defaultCall({ args: { ...defaultCall().args, auth: 'Bearer first-credential-value' } });
      const changed = defaultCall({ canary: 'tok-rotated-secret', args: { ...defaultCall({ canary: 'tok-rotated-secret' }).args, auth: 'Bearer second-credential-value' } });
      const run = singleNodeRun(t, { calls: [original], rerunCalls: [changed] });
      await crashDuringRun(t, run, { kind: 'boundary', boundary: 'after-settle' });
      const client = await t.driver();
      await snapshotBefore(t, client);
      const out = await resumeRun(t, client, run);
      t.expect('re-run prepare verdict', rerunVerdict(original, changed, true), out.verdicts[0]?.verdict.verdict);
      t.expect('physical writes', 1, t.world.counts().physicalWrites);
      t.expect('node output identical to the original', originalOutput(t, run, run.nodes[0]!), out.outputs['node-a']);
      await snapshotAfter(t, client);
    },
  }),
  defineScenario({
    id: 'cp04.after-settle.result-not-retained',
    title: 'After settle: a committed row without a retained result blocks like an unresolved one',
    spec: 'effect-journal §12.4, §4 ("a committed run row is not a green light")',
    tags: ['crash-matrix', 'run', 'gate', 'tier3'],
    needs: [],
    description: 'The engine settles committed without retaining the result; after the kill the gate must refuse rather than wave the re-run through.',
    asserts: ['the gate refuses (needs attention, tier 3)', 'no prepare is attempted', 'one physical write'],
    async trial(t) {
      const run = singleNodeRun(t, { retainResult: false });
      await crashDuringRun(t, run, { kind: 'boundary', boundary: 'after-settle' });
      const client = await t.driver();
      await snapshotBefore(t, client);
      const out = await resumeRun(t, client, run);
      const expected = expectGate([{ tier: 3, state: 'committed', retained: false }], t.capabilities.tierMode);
      t.expect('gate decision', expected.decision, out.gates[0]?.decision);
      t.expect('gate refusal names the tier', expected.refusal?.tiers[0], out.gates[0]?.refusal?.tier);
      t.expect('prepares after restart', 0, out.verdicts.length);
      t.expect('physical writes', 1, t.world.counts().physicalWrites);
      await snapshotAfter(t, client);
    },
  }),
];

function replayScenario(id: string, boundary: BoundaryName, spec: string): Scenario {
  return defineScenario({
    id,
    title: `Kill ${boundary.replace('after-', 'after the ')}: the gate passes and the re-run replays the recorded projections`,
    spec,
    tags: ['crash-matrix', 'run', 'replay'],
    needs: [],
    description: `SIGKILL at ${boundary}. The result is larger than the bounding ceiling, so the recorded projections are truncated; the replay must deliver them verbatim, not re-derive them.`,
    asserts: ['gate passes with action replay', 're-run prepare replays', 'replayed projections equal the recorded ones (truncated flag, summary, output mapping)', 'node output identical to the original', 'exactly one physical write'],
    async trial(t) {
      const run = singleNodeRun(t);
      await crashDuringRun(t, run, { kind: 'boundary', boundary });
      const client = await t.driver();
      await snapshotBefore(t, client);
      const out = await resumeRun(t, client, run);
      const expected = expectGate([{ tier: 3, state: 'committed', retained: true }], t.capabilities.tierMode);
      t.expect('gate decision', expected.decision, out.gates[0]?.decision);
      t.expect('gate action for the committed row', expected.actions[0], out.gates[0]?.effects[0]?.action);
      const verdict = out.verdicts[0]?.verdict;
      t.expect('re-run prepare verdict', rerunVerdict(run.nodes[0]!.calls[0]!, run.nodes[0]!.calls[0]!, true), verdict?.verdict);
      const recorded = expectedProjections(t, run.nodes[0]!, run.runId);
      t.expect('replayed projections', recorded, verdict?.verdict === 'replay' ? verdict.result : null);
      t.expect('recorded result was truncated by the bound', true, recorded.truncated);
      t.expect('node output identical to the original', originalOutput(t, run, run.nodes[0]!), out.outputs['node-a']);
      t.expect('run status', 'completed', out.status);
      t.expect('physical writes', 1, t.world.counts().physicalWrites);
      await snapshotAfter(t, client);
    },
  });
}

function refusalVariant(id: string, what: string, change: (t: TrialContext) => Partial<NodeScript>, code: string): Scenario {
  return defineScenario({
    id,
    title: `After settle: ${what} — refused, not replayed`,
    spec: 'effect-journal §12.4, §4',
    tags: ['crash-matrix', 'run', 'replay', 'refusal'],
    needs: [],
    description: `SIGKILL after the settle; on the re-run ${what}. Answering it with the old result would be a silent wrong result.`,
    asserts: [`the re-run prepare refuses with ${code}`, 'the run fails without re-executing', 'one physical write'],
    async trial(t) {
      const run = singleNodeRun(t, change(t));
      await crashDuringRun(t, run, { kind: 'boundary', boundary: 'after-settle' });
      const client = await t.driver();
      await snapshotBefore(t, client);
      const out = await resumeRun(t, client, run);
      const verdict = out.verdicts[0]?.verdict;
      const node = run.nodes[0]!;
      const allowed = expectPrepareFor(node.calls[0]!, node.rerunCalls?.[0] ?? node.calls[0]!, jsonEqual(node.mapping ?? DEFAULT_MAPPING, node.rerunMapping ?? node.mapping ?? DEFAULT_MAPPING));
      t.expect('re-run prepare verdict', allowed[0]?.verdict, verdict?.verdict);
      t.check('refusal code', code, verdict?.verdict === 'refuse' ? verdict.code : null, verdict?.verdict === 'refuse' && allowed.some((a) => a.verdict === 'refuse' && a.codes[0] === code && a.codes.includes(verdict.code)));
      t.expect('run status', 'failed', out.status);
      t.expect('physical writes', 1, t.world.counts().physicalWrites);
      await snapshotAfter(t, client);
    },
  });
}

// The model's §4/§11 verdict for a committed, retained row re-prepared with `rerun` (same mapping unless `sameMapping` is false).
function expectPrepareFor(original: ToolCall, rerun: ToolCall, sameMapping: boolean): AllowedVerdict[] {
  const args = sameCall({ args: original.args, secretArgKeys: original.secretArgKeys }, { args: rerun.args, secretArgKeys: rerun.secretArgKeys });
  return expectPrepare({ scope: 'run', state: 'committed', resolution: null, legacyDigest: false, sameArgs: args, sameMapping, retained: true });
}

function rerunVerdict(original: ToolCall, rerun: ToolCall, sameMapping: boolean): string | undefined {
  return expectPrepareFor(original, rerun, sameMapping)[0]?.verdict;
}

function expectedProjections(t: TrialContext, node: NodeScript, runId: string) {
  const call = node.calls[0]!;
  const response = t.world.responsesFor(`${runId}/${node.nodeId}/${call.slot}/${call.toolId}`)[0] ?? '';
  return deriveProjections(call.toolId, response, node.mapping ?? DEFAULT_MAPPING);
}
