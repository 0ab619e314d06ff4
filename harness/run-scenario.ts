// Runs one scenario's trial in its own directory and turns what happened into a report entry.
import { EjcError, ProtocolViolation } from '../shared/errors.js';
import { TrialContext } from './engine/trial-context.js';
import { CrashInjected } from './engine/crash-plan.js';
import { JournalOpError } from './engine/journal-client.js';
import { SetupNotProceeded } from './engine/setup-verdict.js';
import { join } from 'node:path';
import { createTrialDir } from './trial-dir.js';
import { deriveSeed } from './rng.js';
import type { Capabilities } from '../shared/protocol/schemas.js';
import type { Launch, ScenarioResult, Trial } from '../reports/schema.js';
import { scenarioVerdict, trialHeadline, trialVerdict } from '../reports/derive.js';
import { missingNeed, type Scenario } from './scenario.js';
import { keepOnlyTranscript, writeTranscript } from './transcript/write-transcript.js';
import { maskTreeSync, maskValue } from '../shared/secrets/mask.js';
import { environmentError } from './environment.js';
import { harnessFault } from './harness-fault.js';
import { checkWorld } from './world/world-scan.js';

export interface ScenarioRunOptions {
  readonly launch: Launch;
  readonly seed: number;
  readonly timeoutMs: number;
  readonly keep: 'all' | 'failed' | 'none';
  readonly capabilities: Capabilities;
  readonly expectedFailure: boolean;
  readonly reproduce: string;
  /** Keep the wire transcript of every trial, even when its directory is not kept (then the directory holds only the transcript). */
  readonly transcripts?: boolean;
  /** Declared-secret adapter options (`--impl-secret`), handed to every driver in its environment. */
  readonly implSecrets?: Readonly<Record<string, string>>;
  /** Where trial directories are made when they may be kept (`--keep`, `--keep-failed`): under `--out`, not the shared temp directory. */
  readonly keepRoot?: string;
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
  const reason = trialHeadline(trial);
  // Whatever a driver said (errors, stderr, rows) ends up here: no planted or declared secret leaves by value.
  return maskValue({ ...base, verdict, reason, trials: [trial], durationMs: Date.now() - started });
}

async function runTrial(scenario: Scenario, options: ScenarioRunOptions): Promise<Trial> {
  const started = Date.now();
  const seed = deriveSeed(options.seed, scenario.seedKey ?? scenario.id);
  const dir = await createTrialDir(options.keep === 'none' ? undefined : options.keepRoot).catch((error: unknown) => {
    throw environmentError(error) ?? new EjcError('environment', `cannot create a trial directory: ${(error as Error).message}`, { cause: error });
  });
  const t = new TrialContext({ id: `${scenario.id}#1`, seed, dir: dir.path, launch: options.launch, timeoutMs: options.timeoutMs, capabilities: options.capabilities, ...(options.implSecrets === undefined ? {} : { implSecrets: options.implSecrets }) });
  const violations: Trial['violations'] = [];
  let clean = false;
  let thrown: unknown = null;
  try {
    await scenario.trial(t);
    clean = true;
  } catch (err) {
    thrown = err;
    if (environmentError(err) === null) classifyFailure(t, scenario, err, violations);
  } finally {
    if (clean) await t.closeAll();
    else await t.killAll();
  }
  // What the harness made for the trial must still be there and writable, on a disk that is not full (a journal that
  // failed on a full disk failed because of the harness's machine): if not, nothing here is about the journal.
  const created = [dir.path, join(dir.path, 'targets'), ...t.journalDirs];
  const environment = environmentError(thrown);
  let fault = harnessFault(created, thrown) ?? (environment === null ? null : `harness fault: ${environment.message}`);
  if (fault === null) {
    try {
      checkEchoes(t);
      // §11 beyond the journal's files: wherever a driver could have written an argument secret, after recovery too.
      checkWorld(t);
    } catch (err) {
      fault = harnessFault(created, err);
      if (fault === null) throw err;
    }
  }
  for (const [name, value] of Object.entries(t.sections)) options.onSection?.(name, scenario.id, maskValue(value));
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
    events: t.record.timeline(),
    durationMs: Date.now() - started,
  };
  trial.verdict = trialVerdict(trial);
  if (fault !== null) inconclusiveByHarness(trial, fault);
  if (trial.verdict !== 'passed') trial.stderrTail = t.stderrTail();
  const keep = options.keep === 'all' || (options.keep === 'failed' && trial.verdict !== 'passed');
  if (fault === null && (keep || options.transcripts === true)) {
    try {
      await writeTranscript(dir.path, t.id, t.record);
      if (!keep) await keepOnlyTranscript(dir.path);
      // A kept directory is for reading: what the harness wrote there (logs, ledgers, traces) is masked; the journal's own files are its evidence.
      maskTreeSync(dir.path, (path) => t.journalDirs.some((j) => path === j));
      dir.keep();
      options.onKept?.(scenario.id, dir.path);
      return trial;
    } catch {
      // A directory that cannot be written or masked is not kept (unmasked it would hand out the secrets); the trial's
      // verdict stands on the evidence already gathered and the run goes on.
    }
  }
  await dir.cleanup().catch(() => undefined);
  return trial;
}

// §11: a secret argument (or a session result) the journal repeats on stdout or stderr has left it, whatever the files say.
function checkEchoes(t: TrialContext): void {
  const { planted, findings } = t.secretEchoes();
  if (planted === 0) return;
  const name = 'the driver repeats no planted secret in a response, an error or on stderr (effect-journal §11)';
  if (findings.length === 0) t.check(name, [], [], true);
  else t.failConclusively(name, [], findings.map((f) => `${f.driver} ${f.stream}: [masked ${f.secret}]`));
}

// The harness's machine failed the trial: no finding against the journal stands, whatever the scenario recorded.
function inconclusiveByHarness(trial: Trial, cause: string): void {
  for (const a of trial.assertions) delete a.conclusive;
  trial.inconclusiveReason = cause;
  trial.verdict = trialVerdict(trial);
}

// A journal that answers an error where the contract needs a result fails, even when that error kept a
// planned crash from happening; a broken protocol, a hang or a crash nobody planned is inconclusive.
function classifyFailure(t: TrialContext, scenario: Scenario, err: unknown, violations: Trial['violations']): void {
  if (err instanceof SetupNotProceeded) {
    t.failConclusively(err.assertion, 'proceed', err.verdict);
    return;
  }
  if (err instanceof JournalOpError) {
    const name = `${err.op} answers a result, as ${scenario.spec} needs here`;
    const actual = err.message;
    // After a crash that went wrong the journal may be answering a state nobody planned: then the error is a consequence.
    const untainted = t.inconclusiveReason === null && t.kills.every((k) => k.signal === 'SIGKILL');
    if (untainted) t.failConclusively(name, 'a result', actual);
    else t.check(name, 'a result', actual, false);
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
