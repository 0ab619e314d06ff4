// Checks `sections.s8e` of a report: each entry is consistent in itself, with its trial, and (when passed) with the S8e table.
import { registerSectionVerifier } from '../../reports/verify.js';
import type { Report } from '../../reports/schema.js';
import { S8eEntry } from './entry.js';
import { tableChecks } from './table.js';
import { ACTION_STATES } from './types.js';

export const S8E_SECTION = 's8e';

/** The verifier for `sections.s8e` (scenario id → entry); returns problems with paths relative to the section. */
export function verifyS8eSection(section: unknown, report: Report): string[] {
  if (section === null || typeof section !== 'object' || Array.isArray(section)) return ['must map scenario ids to entries'];
  const problems: string[] = [];
  for (const [id, raw] of Object.entries(section)) {
    const at = `[${JSON.stringify(id)}]`;
    const parsed = S8eEntry.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.push(`${[at, ...issue.path.map(String)].join('.')}: ${issue.message}`);
      continue;
    }
    const scenario = report.scenarios.find((s) => s.id === id);
    if (!scenario) {
      problems.push(`${at}: no scenario ${id} in this report`);
      continue;
    }
    problems.push(...consistency(parsed.data, scenario).map((p) => `${at}.${p}`));
    // A failed scenario may carry any counts; a passed one claims the S8e table.
    if (scenario.verdict === 'passed') {
      for (const c of tableChecks(parsed.data)) if (!c.passed) problems.push(`${at}: ${c.name}: is ${JSON.stringify(c.actual)}, the S8e table needs ${JSON.stringify(c.expected)}`);
    }
  }
  return problems;
}

function consistency(e: S8eEntry, scenario: Report['scenarios'][number]): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, message: string): void => {
    if (!ok) problems.push(message);
  };
  const stateSum = ACTION_STATES.reduce((n, s) => n + e.states[s], 0);
  need(stateSum === e.selected, `states: sum to ${stateSum}, selected is ${e.selected}`);
  need(e.actions.length === e.selected, `actions: ${e.actions.length} listed, selected is ${e.selected}`);
  for (const s of ACTION_STATES) {
    const listed = e.actions.filter((a) => a.state === s).length;
    need(listed === e.states[s], `states.${s}: is ${e.states[s]}, the actions list ${listed}`);
  }
  need(e.denials.capability + e.denials.stage === e.states.denied, `denials: ${e.denials.capability} + ${e.denials.stage} is not states.denied ${e.states.denied}`);
  need(e.breaker.notRun === e.states.breaker_not_run, `breaker.notRun: is ${e.breaker.notRun}, states.breaker_not_run is ${e.states.breaker_not_run}`);
  need(e.breaker.notRun === 0 || e.denials.capability >= e.breaker.threshold, 'breaker: actions were not run without the threshold of authorization denials');
  need(e.fold.newWrites + e.fold.replays === e.fold.confirmedReceipts, 'fold.confirmedReceipts: is not newWrites + replays');
  need(e.fold.newWrites === e.states.confirmed, `fold.newWrites: is ${e.fold.newWrites}, states.confirmed is ${e.states.confirmed}`);
  need(e.fold.replays === e.states.idempotent_replay_confirmed, `fold.replays: is ${e.fold.replays}, states.idempotent_replay_confirmed is ${e.states.idempotent_replay_confirmed}`);
  need(e.unknown.length === e.states.unknown_pending_readback, `unknown: ${e.unknown.length} listed, states.unknown_pending_readback is ${e.states.unknown_pending_readback}`);
  need(e.fold.unknownExcluded === e.unknown.length, `fold.unknownExcluded: is ${e.fold.unknownExcluded}, ${e.unknown.length} unknown listed`);
  const c = e.counts;
  need(c.duplicateWrites <= c.physicalWrites && c.physicalWrites <= c.dispatchAttempts, 'counts: need duplicateWrites <= physicalWrites <= dispatchAttempts');
  need(c.restartWrites <= c.duplicateWrites, 'counts: restartWrites exceed duplicateWrites');
  const trial = scenario.trials[0];
  if (trial) {
    for (const k of ['dispatchAttempts', 'physicalWrites', 'duplicateWrites', 'restartWrites'] as const) {
      need(c[k] === trial.counts[k], `counts.${k}: is ${c[k]}, the scenario's trial counted ${trial.counts[k]}`);
    }
    need(e.kills === trial.kills.length, `kills: is ${e.kills}, the scenario's trial recorded ${trial.kills.length}`);
  }
  need((e.mode === 'crash') === e.kills > 0, `mode: is ${e.mode} with ${e.kills} kill(s)`);
  return problems;
}

registerSectionVerifier(S8E_SECTION, verifyS8eSection);
