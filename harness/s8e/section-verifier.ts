// Checks `sections.s8e` of a report: each entry is consistent in itself, with its trial, and (when passed) with the S8e table.
import { registerSectionVerifier } from '../../reports/verify.js';
import type { Report } from '../../reports/schema.js';
import { S8eEntry } from './entry.js';
import { S8eSweepEntry, passageConsistency, passageProblems } from './sweep-entry.js';
import { tableChecks } from './table.js';
import { ACTION_STATES } from './types.js';

export const S8E_SECTION = 's8e';

/** The verifier for `sections.s8e` (scenario id → entry); returns problems with paths relative to the section. */
export function verifyS8eSection(section: unknown, report: Report): string[] {
  if (section === null || typeof section !== 'object' || Array.isArray(section)) return ['must map scenario ids to entries'];
  const problems: string[] = [];
  for (const [id, raw] of Object.entries(section)) {
    const at = `[${JSON.stringify(id)}]`;
    if (isSweep(raw)) {
      problems.push(...verifySweep(raw, report, id).map((p) => `${at}${p.startsWith(':') ? '' : '.'}${p}`));
      continue;
    }
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

// An every-step entry says so in its mode; anything else is read (and reported on) as a single-batch entry.
function isSweep(raw: unknown): boolean {
  return raw !== null && typeof raw === 'object' && (raw as { mode?: unknown }).mode === 'every-step';
}

// Problems of an every-step entry: its calibration is a clean batch, each passage a killed one, all adding up to the trial.
function verifySweep(raw: unknown, report: Report, id: string): string[] {
  const parsed = S8eSweepEntry.safeParse(raw);
  if (!parsed.success) return parsed.error.issues.map((issue) => [...issue.path.map(String)].join('.') + `: ${issue.message}`);
  const scenario = report.scenarios.find((s) => s.id === id);
  if (!scenario) return [`: no scenario ${id} in this report`];
  const e = parsed.data;
  const problems = consistency(e.calibration, scenario, false).map((p) => `calibration.${p}`);
  const need = (ok: boolean, message: string): void => {
    if (!ok) problems.push(message);
  };
  need(e.calibration.mode === 'clean' && e.calibration.kills === 0, 'calibration: must be a clean batch with no kill');
  const seen = new Set<string>();
  for (const [i, run] of e.passages.entries()) {
    const key = `${run.boundary}/${run.index}/${run.phase}/${run.occurrence}`;
    need(!seen.has(key), `passages.${i}: repeats passage ${key}`);
    seen.add(key);
    need(run.boundary === e.boundary, `passages.${i}.boundary: is ${run.boundary}, the entry sweeps ${e.boundary}`);
    problems.push(...passageConsistency(run).map((p) => `passages.${i}.${p}`));
  }
  const kills = e.passages.filter((r) => r.kill !== null);
  need(e.kills === kills.length, `kills: is ${e.kills}, ${kills.length} passage(s) record a kill`);
  const trial = scenario.trials[0];
  if (trial) {
    need(e.kills === trial.kills.length, `kills: is ${e.kills}, the scenario's trial recorded ${trial.kills.length}`);
    need(JSON.stringify(kills.map((r) => r.kill)) === JSON.stringify(trial.kills.map((k) => k.point)), "passages: their kills are not the trial's kills in order");
    for (const k of ['dispatchAttempts', 'physicalWrites', 'duplicateWrites', 'restartWrites'] as const) {
      const sum = e.calibration.counts[k] + e.passages.reduce((n, r) => n + r.counts[k], 0);
      need(sum === trial.counts[k], `counts.${k}: calibration and passages sum to ${sum}, the scenario's trial counted ${trial.counts[k]}`);
    }
  }
  // A passed sweep claims the S8e table for the calibration batch and after every single kill.
  if (scenario.verdict === 'passed') {
    need(e.passages.length > 0, 'passages: a passed sweep needs at least one');
    for (const c of tableChecks(e.calibration)) if (!c.passed) problems.push(`calibration: ${c.name}: is ${JSON.stringify(c.actual)}, the S8e table needs ${JSON.stringify(c.expected)}`);
    for (const [i, run] of e.passages.entries()) problems.push(...passageProblems(run).map((p) => `passages.${i}.${p}`));
  }
  return problems;
}

function consistency(e: S8eEntry, scenario: Report['scenarios'][number], againstTrial = true): string[] {
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
  const trial = againstTrial ? scenario.trials[0] : undefined;
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
