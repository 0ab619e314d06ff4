// One generated trial, start to verdict: executed for real, its history judged by the model, its evidence as a report trial.
import { TrialContext } from '../engine/trial-context.js';
import { scanTrialWorld } from '../world/world-scan.js';
import { CrashInjected } from '../engine/crash-plan.js';
import { EjcError, ProtocolViolation } from '../../shared/errors.js';
import { createTrialDir } from '../trial-dir.js';
import type { Capabilities } from '../../shared/protocol/schemas.js';
import { checkHistory, type ModelReport } from '../model/check-history.js';
import { CLAUSES, type ClauseId } from '../model/clauses.js';
import type { Assertion, Launch, Trial } from '../../reports/schema.js';
import { trialVerdict } from '../../reports/derive.js';
import { maskCanaries } from './canaries.js';
import type { Features, TrialCase } from './case.js';
import { executeCase } from './execute.js';
import { renderSteps, type Step } from './render.js';

export interface TrialRunOptions {
  readonly launch: Launch;
  readonly timeoutMs: number;
  readonly capabilities: Capabilities;
  readonly features: Features;
  readonly id: string;
  readonly seed: number;
  readonly keep: 'all' | 'failed' | 'none';
  /** Where a trial that may be kept gets its directory (`<out>/kept`); unset, the temp directory. */
  readonly keepRoot?: string;
  readonly onKept?: (dir: string) => void;
}

/** A contract violation as a counterexample shows it. */
export interface Violation {
  readonly clause: ClauseId;
  readonly contract: string;
  readonly what: string;
  readonly expected: unknown;
  readonly observed: unknown;
  /** The step (1-based history index) where the observation broke the clause. */
  readonly step: number;
}

export interface GeneratedTrial {
  readonly trial: Trial;
  readonly model: ModelReport;
  readonly violation: Violation | null;
  readonly steps: Step[];
  /** The world counts of this trial (a scenario adopting it adds them to its own). */
  readonly context: TrialContext;
}

/** Runs one case in a fresh directory; the trial fails on a model violation, is inconclusive when it could not decide. */
export async function runGeneratedTrial(c: TrialCase, o: TrialRunOptions): Promise<GeneratedTrial> {
  const started = Date.now();
  // A directory that may be kept is made where it is kept: beside the report, never in the shared temp directory.
  const dir = await createTrialDir(o.keep === 'none' ? undefined : o.keepRoot);
  const t = new TrialContext({ id: o.id, seed: o.seed, dir: dir.path, launch: o.launch, timeoutMs: o.timeoutMs, capabilities: o.capabilities });
  const violations: Trial['violations'] = [];
  let clean = false;
  try {
    await executeCase(t, c, o.features);
    clean = true;
  } catch (error) {
    inconclusive(t, error, violations);
  } finally {
    if (clean) await t.closeAll();
    else await t.killAll();
  }
  // Points announced in hello are armed in every driver; a journal that never stops at one cannot be killed there.
  if (clean && o.capabilities.crashPoints.length > 0 && t.pointsSeen === 0) {
    t.inconclusiveReason ??= `the implementation announces ${o.capabilities.crashPoints.length} crash point(s), all armed, and stopped at none of them in this trial`;
  }
  const history = t.history ?? [];
  const canaries = history.flatMap((e) => (e.kind === 'canary' ? [e.value] : []));
  const model = checkHistory(history, { tierMode: o.capabilities.tierMode, gate: o.capabilities.gate });
  const violation = model.failure === null ? (echoViolation(t, history.length) ?? worldViolation(t, history.length)) : {
    clause: model.failure.clause,
    contract: CLAUSES[model.failure.clause],
    what: maskCanaries(model.failure.what, canaries) as string,
    expected: maskCanaries(model.failure.expected, canaries),
    observed: maskCanaries(model.failure.observed, canaries),
    step: model.failure.at + 1,
  };
  if (violation !== null && violation.clause.startsWith('secrets.')) t.tally.canaryHits += 1;
  const trial: Trial = {
    id: o.id,
    seed: o.seed,
    plannedKills: t.plannedKills,
    kills: t.kills,
    effectsBefore: null,
    effectsAfter: t.effectsAfter,
    assertions: assertions(model, violation),
    counts: { trials: 1, kills: t.kills.length, restarts: t.tally.restarts, ...t.world.counts(), replays: t.tally.replays, refusals: t.tally.refusals, disclosures: t.tally.disclosures, bytesScanned: t.tally.bytesScanned, canaryHits: t.tally.canaryHits },
    verdict: 'passed',
    // A violation decides the trial even when the harness could not finish it afterwards.
    inconclusiveReason: violation === null ? t.inconclusiveReason : null,
    violations: violation === null ? violations : [],
    stderrTail: [],
    durationMs: Date.now() - started,
  };
  trial.verdict = trialVerdict(trial);
  if (trial.verdict !== 'passed') {
    trial.stderrTail = maskCanaries(t.stderrTail(), canaries) as string[];
    // The same timeline a fixed trial has, so a counterexample reads as one; only for trials a reader opens (a stream
    // of passing trials would multiply the report), and times are not outcome: the digest leaves it out.
    trial.events = t.record.timeline();
  }
  const keep = o.keep === 'all' || (o.keep === 'failed' && trial.verdict !== 'passed');
  if (keep) {
    dir.keep();
    o.onKept?.(dir.path);
  } else {
    await dir.cleanup();
  }
  return { trial, model, violation, steps: renderSteps(history, canaries), context: t };
}

// §11 on evidence the journal does not control: an argument secret repeated on the driver's stdout or stderr has left it.
function echoViolation(t: TrialContext, steps: number): Violation | null {
  const { findings } = t.secretEchoes();
  if (findings.length === 0) return null;
  return {
    clause: 'secrets.args',
    contract: CLAUSES['secrets.args'],
    what: 'the driver repeats a planted argument secret in a response, an error or on stderr',
    expected: [],
    observed: findings.map((f) => `${f.driver} ${f.stream}: [masked ${f.secret}]`),
    step: steps,
  };
}

// §11 beyond the journal's files: an argument secret in any file written during the trial, wherever a driver can write.
function worldViolation(t: TrialContext, steps: number): Violation | null {
  const world = scanTrialWorld(t);
  if (world === null || world.found.length === 0) return null;
  return {
    clause: 'secrets.args',
    contract: CLAUSES['secrets.args'],
    what: "a planted argument secret is in a file written during the trial outside the journal directory and the harness's own files (temporary directories, home, working directory, service state and log directories, the implementation's own directory, the rest of the file system), or in a name, link target or extended attribute, or in a System V IPC object",
    expected: [],
    observed: world.found,
    step: steps,
  };
}

// One assertion per clause of the model, and the violation itself. Which clause an observation counts for can depend on
// timing (two prepares of one identity overlap in real time or follow each other), so the per-clause counts are kept
// as the assertion's `observed`, outside the outcome digest, and every clause is listed whether or not it was seen.
function assertions(model: ModelReport, violation: Violation | null): Assertion[] {
  const out: Assertion[] = (Object.keys(CLAUSES) as ClauseId[])
    .sort((a, b) => (a < b ? -1 : 1))
    .filter((clause) => clause !== violation?.clause)
    .map((clause) => ({ name: `${clause}: ${CLAUSES[clause]}`, expected: 'no observation outside the model', actual: 'no observation outside the model', observed: { observations: model.checks[clause] ?? 0 }, passed: true }));
  if (violation !== null) out.push({ name: `${violation.clause}: ${violation.what} (step ${violation.step})`, expected: violation.expected, actual: violation.observed, passed: false });
  return out;
}

// Why a trial could not decide: the protocol broke, a driver hung or exited, or the harness itself failed.
function inconclusive(t: TrialContext, error: unknown, violations: Trial['violations']): void {
  if (error instanceof ProtocolViolation) {
    violations.push({ op: error.op, field: error.field, message: error.message });
    return;
  }
  if (error instanceof CrashInjected) {
    t.inconclusiveReason ??= `a crash at ${error.where} happened outside the phase that planned it`;
    return;
  }
  if (error instanceof EjcError) {
    t.inconclusiveReason ??= `${error.code}: ${error.message}`;
    return;
  }
  t.inconclusiveReason ??= `harness error: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
}
