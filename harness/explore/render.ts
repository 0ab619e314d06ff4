// A history as numbered steps a person can follow (counterexamples, the HTML timeline); canaries only ever by id.
import type { GateDecision, PrepareRequest, PrepareVerdict, SessionReadResult } from '../../shared/protocol/schemas.js';
import type { HistoryEvent } from '../model/history.js';
import { maskCanaries } from './canaries.js';

/** One step of a counterexample. */
export interface Step {
  readonly step: number;
  readonly text: string;
}

const MAX_TEXT = 400;

/** The history as steps; scans without hits and canary registrations are left out as noise. */
export function renderSteps(history: readonly HistoryEvent[], canaries: readonly string[]): Step[] {
  const steps: Step[] = [];
  history.forEach((e, i) => {
    const text = describeEvent(e);
    if (text !== null) steps.push({ step: i + 1, text: clip(maskCanaries(text, canaries) as string) });
  });
  return steps;
}

function describeEvent(e: HistoryEvent): string | null {
  switch (e.kind) {
    case 'driver':
      return `start ${e.driver}${e.restart ? ' (restart after a kill)' : ''}${e.clock ? ` with its clock moved ${e.clock}` : ''}`;
    case 'kill':
      return `SIGKILL ${e.driver} at ${e.at} (observed ${e.signal ?? 'no signal'})`;
    case 'close':
      return `${e.driver} closes`;
    case 'op':
      return `${e.driver} ${describeOp(e)}`;
    case 'dispatch':
      return `target ${e.target} (tier ${e.tier}) ${e.applied ? 'writes' : 'deduplicates'} ${e.logicalKey} under key ${e.idempotencyKey}`;
    case 'lookup':
      return `target ${e.target} receipt lookup for key ${e.idempotencyKey}: ${e.found ? 'found' : 'absent'}`;
    case 'notice':
      return `engine publishes the notice for session ${JSON.stringify(e.sessionId)}: ${e.effectIds.length === 0 ? 'nothing' : e.effectIds.join(', ')}`;
    case 'scan':
      return e.hits.length === 0 ? null : `byte scan of the journal directory (${e.files} files, ${e.bytes} bytes): ${e.hits.map((h) => `canary #${h.id} in ${h.file}`).join(', ')}`;
    case 'note':
      return e.text;
    case 'canary':
      return null;
  }
}

function describeOp(e: Extract<HistoryEvent, { kind: 'op' }>): string {
  const a = e.answer;
  const answer = a.kind === 'killed' ? `killed inside (${a.at})` : a.kind === 'error' ? `error ${a.code}` : describeResult(e.op, a.result);
  return `${describeRequest(e.op, e.params)} → ${answer}`;
}

function describeRequest(op: string, params: unknown): string {
  const p = params as Record<string, unknown>;
  switch (op) {
    case 'prepare': {
      const q = p as unknown as PrepareRequest;
      const c = q.correlation;
      const where = c.kind === 'run' ? `run ${JSON.stringify(c.runId)} node ${JSON.stringify(c.nodeId)} (attempt ${c.attempt})` : `session ${JSON.stringify(c.sessionId)} turn ${c.turn}`;
      const mapping = q.outputMappingConfig === undefined ? '' : ` mapping ${JSON.stringify(q.outputMappingConfig)}`;
      return `prepare ${where} slot ${q.slot} ${q.toolId} tier ${q.tier} args ${JSON.stringify(q.args)} secret keys ${JSON.stringify(q.secretArgKeys)}${mapping}`;
    }
    case 'settle':
      return `settle ${String(p['effectId'])} ${String(p['state'])}${p['state'] === 'committed' ? (p['result'] === null ? ' without a result' : ' with its result') : ''}`;
    case 'gate': {
      const scope = p['scope'] as { runId: string; nodeId: string };
      return `gate run ${JSON.stringify(scope.runId)} node ${JSON.stringify(scope.nodeId)}`;
    }
    case 'sessionRead':
      return `sessionRead ${JSON.stringify(p['sessionId'])} with ${(p['transcript'] as unknown[]).length} transcript turn(s)`;
    case 'sessionSweep':
      return `sessionSweep ${JSON.stringify(p['sessionId'])} of ${(p['captured'] as unknown[]).length} captured row(s)${p['insideOuterTransaction'] ? ' inside an outer transaction' : ''}`;
    case 'runTerminal':
      return `runTerminal ${JSON.stringify(p['runId'])}`;
    case 'reconcile':
      return `reconcile ${String(p['effectId'])} (${(p['evidence'] as { kind: string }).kind})`;
    case 'resolve':
      return `resolve ${String(p['effectId'])} as ${String(p['decision'])}`;
    case 'fault':
      return `fault ${String(p['fault'])} ${p['enabled'] ? 'on' : 'off'}`;
    case 'open':
      return 'open';
    default:
      return `${op} ${JSON.stringify(params)}`;
  }
}

function describeResult(op: string, result: unknown): string {
  switch (op) {
    case 'prepare': {
      const v = result as PrepareVerdict;
      if (v.verdict === 'proceed') return `proceed (effect ${v.effectId}, key ${v.idempotencyKey})`;
      if (v.verdict === 'replay') return `replay of effect ${v.effectId}: ${JSON.stringify(v.result)}`;
      return `refuse ${v.code}${v.effectId === null ? '' : ` (effect ${v.effectId})`}`;
    }
    case 'gate': {
      const g = result as GateDecision;
      const effects = g.effects.map((x) => `${x.effectId} slot ${x.slot} ${x.state} → ${x.action}`).join('; ');
      return `${g.decision}${g.refusal ? ` (${g.refusal.code}, tier ${String(g.refusal.tier)})` : ''} [${effects}]`;
    }
    case 'sessionRead': {
      const r = result as SessionReadResult;
      return `${r.effects.length} row(s); disclosed [${r.disclosures.map((d) => `${d.effectId}: ${d.reason}`).join(', ')}]; captured [${r.captured.map((c) => c.effectId).join(', ')}]`;
    }
    case 'listEffects': {
      const rows = (result as { effects: Array<{ effectId: string; state: string; slot: number; toolId: string; scope: unknown }> }).effects;
      return `${rows.length} row(s): ${rows.map((r) => `${r.effectId} ${JSON.stringify(r.scope)} slot ${r.slot} ${r.state}`).join('; ')}`;
    }
    default:
      return JSON.stringify(result);
  }
}

function clip(text: string): string {
  return text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT)}… (${text.length - MAX_TEXT} more characters)`;
}
