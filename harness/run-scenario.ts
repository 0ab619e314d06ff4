// Runs one scenario's trial in its own directory and turns what happened into a report entry.
import { EjcError, ProtocolViolation } from './errors.js';
import { TrialContext } from './engine/trial-context.js';
import { CrashInjected } from './engine/crash-plan.js';
import { JournalOpError } from './engine/journal-client.js';
import { createTrialDir } from './trial-dir.js';
import { deriveSeed } from './rng.js';
import type { Capabilities } from './protocol/schemas.js';
import type { Launch, ScenarioResult, Trial } from '../reports/schema.js';
import { inconclusiveCause, scenarioVerdict, trialVerdict } from '../reports/derive.js';
import { missingNeed, type Scenario } from '../scenarios/define.js';

export interface ScenarioRunOptions {
  readonly launch: Launch;
  readonly seed: number;
  readonly timeoutMs: number;
  readonly keep: 'all' | 'failed' | 'none';
  readonly capabilities: Capabilities;
  readonly expectedFailure: boolean;
  readonly reproduce: string;
  /** Told where a kept trial directory is. */
  readonly onKept?: (scenarioId: string, dir: string) => void;
  /** Told of each report section the trial contributed (see TrialContext.sections). */
  readonly onSection?: (name: string, scenarioId: string, value: unknown) => void;
}

/** Runs a scenario (or records why it is not applicable) and returns its result with full evidence. */
export async function runScenario(scenario: Scenario, options: ScenarioRunOptions): Promise<ScenarioResult> {
  const started = Date.now();
  const base = { id: scenario.id, title: scenario.title, spec: scenario.spec, tags: [...scenario.tags], reproduce: options.reproduce };
  const missing = missingNeed(scenario.needs, options.capabilities);
  if (missing !== null) {
    return { ...base, verdict: 'not_applicable', reason: `needs ${missing}`, trials: [], durationMs: Date.now() - started };
  }
  const trial = await runTrial(scenario, options);
  const verdict = scenarioVerdict([trial], { expectedFailure: options.expectedFailure });
  const firstFailed = trial.assertions.find((a) => !a.passed);
  const reason = trial.verdict === 'inconclusive' ? inconclusiveCause(trial) : firstFailed ? `assertion failed: ${firstFailed.name}` : null;
  return { ...base, verdict, reason, trials: [trial], durationMs: Date.now() - started };
}

async function runTrial(scenario: Scenario, options: ScenarioRunOptions): Promise<Trial> {
  const started = Date.now();
  const seed = deriveSeed(options.seed, scenario.id);
  const dir = await createTrialDir(`ejc-${scenario.id}`);
  const t = new TrialContext({ id: `${scenario.id}#1`, seed, dir: dir.path, launch: options.launch, timeoutMs: options.timeoutMs, capabilities: options.capabilities });
  const violations: Trial['violations'] = [];
  let clean = false;
  try {
    await scenario.trial(t);
    clean = true;
  } catch (err) {
    classifyFailure(t, err, violations);
  } finally {
    if (clean) await t.closeAll();
    else await t.killAll();
  }
  for (const [name, value] of Object.entries(t.sections)) options.onSection?.(name, scenario.id, value);
  const world = t.world.counts();
  const trial: Trial = {
    id: t.id,
    seed,
    plannedKills: t.plannedKills,
    kills: t.kills,
    effectsBefore: t.effectsBefore,
    effectsAfter: t.effectsAfter,
    assertions: t.assertions,
    counts: { trials: 1, kills: t.kills.length, restarts: t.tally.restarts, ...world, replays: t.tally.replays, refusals: t.tally.refusals, disclosures: t.tally.disclosures, bytesScanned: t.tally.bytesScanned, canaryHits: t.tally.canaryHits },
    ...(t.variableCounts.size > 0 ? { variableCounts: [...t.variableCounts].sort() } : {}),
    verdict: 'passed',
    inconclusiveReason: t.inconclusiveReason,
    violations,
    stderrTail: [],
    durationMs: Date.now() - started,
  };
  trial.verdict = trialVerdict(trial);
  if (trial.verdict !== 'passed') trial.stderrTail = t.stderrTail();
  const keep = options.keep === 'all' || (options.keep === 'failed' && trial.verdict !== 'passed');
  if (keep) {
    dir.keep();
    options.onKept?.(scenario.id, dir.path);
  } else {
    await dir.cleanup();
  }
  return trial;
}

// A journal that answers an error where the contract needs a result fails; a broken protocol, a hang or a crash nobody planned is inconclusive.
function classifyFailure(t: TrialContext, err: unknown, violations: Trial['violations']): void {
  if (err instanceof JournalOpError) {
    t.check(`${err.op} succeeds`, 'a result', `error ${err.code}: ${err.message}`, false);
    return;
  }
  if (err instanceof ProtocolViolation) {
    violations.push({ op: err.op, field: err.field, message: err.message });
    return;
  }
  if (err instanceof CrashInjected) {
    t.inconclusiveReason ??= `a crash at ${err.where} happened outside the phase that planned it`;
    return;
  }
  if (err instanceof EjcError) {
    t.inconclusiveReason ??= `${err.code}: ${err.message}`;
    return;
  }
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  t.inconclusiveReason ??= `harness error: ${message}`;
}
