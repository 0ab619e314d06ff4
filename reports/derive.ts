// The single source of verdict logic: the runner, merge, verify and the exit code all derive here so they cannot disagree.
import { CountKeys, zeroCounts } from './schema.js';
import type { Assertion, Counts, ScenarioResult, ScenarioVerdict, Summary, Trial, TrialVerdict, Verdict } from './schema.js';

/** The fields of a trial its verdict depends on. */
export type TrialEvidence = Pick<Trial, 'plannedKills' | 'kills' | 'violations' | 'inconclusiveReason' | 'assertions'>;

/**
 * A trial's verdict from its evidence. A conclusive failure (the journal's own answer broke a clause,
 * whatever else happened) is failed; otherwise a crash trial that never crashed (or not by SIGKILL)
 * is inconclusive, never passed, and any other failed assertion is failed.
 */
export function trialVerdict(trial: TrialEvidence): TrialVerdict {
  if (conclusiveFailure(trial) !== null) return 'failed';
  if (inconclusiveCause(trial) !== null) return 'inconclusive';
  return trial.assertions.some((a) => !a.passed) ? 'failed' : 'passed';
}

/** The first failed assertion that stands on its own (it does not depend on the planned crash having happened), or null. */
export function conclusiveFailure(trial: Pick<Trial, 'assertions'>): Assertion | null {
  return trial.assertions.find((a) => !a.passed && a.conclusive === true) ?? null;
}

/** Why a trial cannot count as evidence either way, or null when it can. */
export function inconclusiveCause(trial: TrialEvidence): string | null {
  // The most specific cause first: a violation or a named failure explains a missing kill, not the reverse.
  if (trial.violations.length > 0) return `protocol violation: ${trial.violations[0]!.message}`;
  if (trial.inconclusiveReason !== null) return trial.inconclusiveReason;
  if (trial.plannedKills > trial.kills.length) {
    return `planned ${trial.plannedKills} kill(s) but recorded ${trial.kills.length}`;
  }
  const notKilled = trial.kills.find((k) => k.signal !== 'SIGKILL');
  if (notKilled !== undefined) {
    return `the driver at ${notKilled.point} ended with ${notKilled.signal ?? 'no signal'}, not SIGKILL`;
  }
  // A kill that left part of the journal running (or holding its files) crashed nothing in particular.
  const leaky = trial.kills.find((k) => (k.tree?.survivors.length ?? 0) > 0);
  if (leaky !== undefined) {
    return `the kill at ${leaky.point} left ${leaky.tree!.survivors.length} process(es) running or holding the journal's files`;
  }
  // A trial that checked nothing proves nothing: it can never count as passed.
  if (trial.assertions.length === 0) return 'the trial checked no assertion';
  return null;
}

/** The headline of a trial that did not pass: the real cause, never a consequence of it. */
export function trialHeadline(trial: TrialEvidence & Pick<Trial, 'verdict'>): string | null {
  if (trial.verdict === 'passed') return null;
  const conclusive = conclusiveFailure(trial);
  if (conclusive !== null) return `${conclusive.name}: got ${showValue(conclusive.actual)}`;
  if (trial.verdict === 'inconclusive') return inconclusiveCause(trial);
  const failed = trial.assertions.find((a) => !a.passed);
  return failed === undefined ? null : `assertion failed: ${failed.name}`;
}

/**
 * A scenario's verdict from its trials' verdicts. With no trials the scenario did not run:
 * the caller records not_applicable (and why), so this returns not_applicable too.
 */
export function scenarioVerdict(
  trials: ReadonlyArray<Pick<Trial, 'verdict'>>,
  options: { expectedFailure: boolean },
): ScenarioVerdict {
  if (trials.length === 0) return 'not_applicable';
  if (trials.some((t) => t.verdict === 'failed')) return options.expectedFailure ? 'expected_failure' : 'failed';
  if (trials.some((t) => t.verdict === 'inconclusive')) return 'inconclusive';
  return options.expectedFailure ? 'stale_expected_failure' : 'passed';
}

/** Whether a recorded scenario verdict says it was listed as an expected failure. */
export function wasExpectedFailure(verdict: ScenarioVerdict): boolean {
  return verdict === 'expected_failure' || verdict === 'stale_expected_failure';
}

/** Per-verdict scenario counts. */
export function summarize(scenarios: ReadonlyArray<Pick<ScenarioResult, 'verdict'>>): Summary {
  const summary: Summary = {
    total: scenarios.length,
    passed: 0,
    failed: 0,
    inconclusive: 0,
    notApplicable: 0,
    expectedFailures: 0,
    staleExpectedFailures: 0,
  };
  for (const s of scenarios) summary[SUMMARY_KEY[s.verdict]] += 1;
  return summary;
}

/** The element-wise sum of the trials' counts. */
export function sumCounts(trials: ReadonlyArray<Pick<Trial, 'counts'>>): Counts {
  const total = zeroCounts();
  for (const t of trials) for (const k of CountKeys) total[k] += t.counts[k];
  return total;
}

/**
 * The report verdict, a claim about the journal: any failure, expected or not, is nonconformant
 * (listing a failure as expected does not make the journal conform), and so is a stale expectation;
 * otherwise an inconclusive scenario, or nothing passed, is inconclusive.
 */
export function reportVerdict(summary: Summary): Verdict {
  if (summary.failed > 0 || summary.staleExpectedFailures > 0 || summary.expectedFailures > 0) return 'nonconformant';
  if (summary.inconclusive > 0 || summary.passed === 0) return 'inconclusive';
  return 'conformant';
}

/**
 * What a CI gate should do with a report, which the verdict alone cannot say: `known_failures` is a
 * nonconformant report whose every failure was listed as expected (the gate passes, the verdict
 * still says nonconformant). An inconclusive scenario still makes the gate inconclusive.
 */
export type GateOutcome = 'conformant' | 'known_failures' | 'nonconformant' | 'inconclusive';

/** The gate outcome of a summary (see GateOutcome). */
export function gateOutcome(summary: Summary): GateOutcome {
  if (summary.failed > 0 || summary.staleExpectedFailures > 0) return 'nonconformant';
  if (summary.inconclusive > 0) return 'inconclusive';
  if (summary.expectedFailures > 0) return 'known_failures';
  return summary.passed === 0 ? 'inconclusive' : 'conformant';
}

function showValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? 'undefined';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

const SUMMARY_KEY: Record<ScenarioVerdict, Exclude<keyof Summary, 'total'>> = {
  passed: 'passed',
  failed: 'failed',
  inconclusive: 'inconclusive',
  not_applicable: 'notApplicable',
  expected_failure: 'expectedFailures',
  stale_expected_failure: 'staleExpectedFailures',
};
