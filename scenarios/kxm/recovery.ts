// KXM crash matrix: each row of "last durable evidence → recovery decision" with a real SIGKILL, plus the registry's authority.
import { defineScenario, type Need, type Scenario } from '../../harness/scenario.js';
import { kxmClassRows } from './class-rows.js';
import { crashThenRestart, declareParams, effectOf, expectWrites, kxmSpec, recoverRun, type RecoverOptions } from './support.js';
import type { KxmClass, KxmRecoveryDecision } from '../../shared/protocol/schemas.js';

const SPEC = 'kxm-effects-and-recovery §Crash matrix, §Dispatch fence';
const needs = (point: string): Need[] => ['kxm', `point:${point}`];

export const kxmRecovery: Scenario[] = [
  matrixRow('kxm.recovery.never-started', 'Intent recorded, process provably never started: start the same planned attempt', {
    tool: 'deploy-script',
    point: 'kxm.declare.after-commit',
    decision: 'start_planned_attempt',
    finalState: 'completed',
    writes: 1,
  }),
  matrixRow('kxm.recovery.receipt-found', 'Stable external receipt found: record it, do not repeat the action', {
    tool: 'github-pr',
    point: 'kxm.complete.before-commit',
    decision: 'record_receipt',
    finalState: 'completed',
    writes: 1,
  }),
  matrixRow('kxm.recovery.receipt-absent', 'Receipt query proves absence: retry once with the same deterministic key', {
    tool: 'kv-put',
    point: 'kxm.dispatch.after-commit',
    decision: 'retry_same_key',
    finalState: 'completed',
    writes: 1,
  }),
  matrixRow('kxm.recovery.query-unavailable', 'Receipt query unavailable: blocked_uncertain, nothing retried', {
    tool: 'github-pr',
    point: 'kxm.complete.before-commit',
    decision: 'blocked_uncertain',
    finalState: 'blocked_uncertain',
    writes: 1,
    recover: { receipt: { kind: 'unavailable' } },
  }),
  matrixRow('kxm.recovery.query-ambiguous', 'Receipt query ambiguous: blocked_uncertain, nothing retried', {
    tool: 'github-pr',
    point: 'kxm.complete.before-commit',
    decision: 'blocked_uncertain',
    finalState: 'blocked_uncertain',
    writes: 1,
    recover: { receipt: { kind: 'ambiguous' } },
  }),
  matrixRow('kxm.recovery.replacement-exists', 'A replacement process already exists: do not reattach the old attempt; block', {
    tool: 'github-pr',
    point: 'kxm.dispatch.after-commit',
    decision: 'blocked_uncertain',
    finalState: 'blocked_uncertain',
    writes: 0,
    recover: { process: 'replacement_exists' },
  }),
  registryRow('kxm.registry.downgrade-refused', 'Tool metadata claiming a safer class than the registry is refused; recovery follows the registry', 'deploy-script', 'external-idempotent'),
  registryRow('kxm.registry.unknown-tool', 'An unregistered tool is unknown whatever its metadata claims; recovery blocks', 'custom-shell', 'read-only'),
  ...kxmClassRows,
];

interface Row {
  tool: string;
  point: string;
  decision: KxmRecoveryDecision;
  finalState: string;
  writes: number;
  recover?: RecoverOptions;
}

function matrixRow(id: string, title: string, row: Row): Scenario {
  return defineScenario({
    id,
    title,
    spec: SPEC,
    tags: ['kxm', 'crash-matrix', 'recovery'],
    needs: needs(row.point),
    description: `A ${row.tool} effect is SIGKILLed at ${row.point}; after the restart the journal must decide ${row.decision}.`,
    asserts: [`the recovery decision is ${row.decision}`, `the effect ends ${row.finalState}`, `${row.writes} physical write(s), no duplicate`],
    async trial(t) {
      const spec = kxmSpec(t, row.tool);
      const declaredKey = await crashThenRestart(t, spec, row.point);
      const client = await t.driver();
      const decisions = await recoverRun(t, client, [spec], row.recover ?? {});
      t.expect('recovery decision', row.decision, decisions[0]?.decision);
      const effect = await effectOf(client, spec);
      t.expect('final state', row.finalState, effect?.state);
      if (row.decision === 'start_planned_attempt') t.expect('same planned attempt', spec.attemptId, effect?.attemptId);
      if (row.decision === 'retry_same_key') t.expect('retried under the declared key', declaredKey ?? '<declare unanswered>', decisions[0]?.idempotencyKey);
      if (row.decision === 'record_receipt') t.expect('receipt recorded from the query', 'query', effect?.receipt?.source);
      if (row.finalState === 'blocked_uncertain') t.check('blocked state lists permitted resolutions', '≥ 1', effect?.blocked?.permittedResolutions.length ?? 0, (effect?.blocked?.permittedResolutions.length ?? 0) > 0);
      expectWrites(t, row.writes);
    },
  });
}

function registryRow(id: string, title: string, tool: string, declaredClass: KxmClass): Scenario {
  const point = 'kxm.complete.before-commit';
  return defineScenario({
    id,
    title,
    spec: 'kxm-effects-and-recovery §Effect declaration ("cannot downgrade the registry classification")',
    tags: ['kxm', 'crash-matrix', 'registry'],
    needs: needs(point),
    description: `${tool}'s metadata declares ${declaredClass}; the journal must keep the registry's class (unknown), then block after a lost acknowledgement.`,
    asserts: ['the effective class is unknown (tier 3)', 'the declaration is marked not accepted', 'recovery blocks instead of reconciling', 'one physical write, no duplicate'],
    async trial(t) {
      const spec = kxmSpec(t, tool, { declaredClass });
      await crashThenRestart(t, spec, point);
      const client = await t.driver();
      const before = await effectOf(client, spec);
      t.expect('effective class', 'unknown', before?.effectClass);
      t.expect('tier', 3, before?.tier);
      t.expect('declaration accepted', false, before?.declarationAccepted);
      const decisions = await recoverRun(t, client, [spec]);
      t.expect('recovery decision', 'blocked_uncertain', decisions[0]?.decision);
      // A more cautious declaration is harmless and is honoured.
      const upgrade = await client.op('kxm.declare', declareParams(kxmSpec(t, 'kv-put', { declaredClass: 'external-non-idempotent' })));
      t.expect('cautious declaration honoured', 'external-non-idempotent', upgrade.verdict === 'recorded' ? upgrade.effect.effectClass : upgrade.code);
      expectWrites(t, 1);
    },
  });
}
