// The conformance report's zod schema: the witness artifact every run writes and `ejc verify` checks.
import { z } from 'zod';
import { Capabilities, EffectRow } from '../shared/protocol/schemas.js';
import { Environment, Fingerprint, HarnessBuild, Settings } from './binding-schema.js';

export const REPORT_SCHEMA_NAME = 'ejc-conformance-report';
/** 2: reports bind the fingerprint, harness build, environment and settings (version 1 reports had none). */
export const REPORT_SCHEMA_VERSION = 2;

export const CountKeys = [
  'trials',
  'kills',
  'restarts',
  'dispatchAttempts',
  'physicalWrites',
  'duplicateWrites',
  'restartWrites',
  'replays',
  'refusals',
  'disclosures',
  'bytesScanned',
  'canaryHits',
] as const;
export type CountKey = (typeof CountKeys)[number];
/** The counts a trial may mark as legitimately variable: never a write, kill or canary count, which are findings. */
export const VariableCountKeys = ['disclosures', 'replays', 'refusals', 'bytesScanned'] as const satisfies readonly CountKey[];
export type VariableCountKey = (typeof VariableCountKeys)[number];
export const Counts = z.object(Object.fromEntries(CountKeys.map((k) => [k, z.number().int().min(0)])) as Record<CountKey, z.ZodNumber>);
export type Counts = z.infer<typeof Counts>;

export const Assertion = z.object({
  name: z.string().min(1),
  expected: z.unknown(),
  actual: z.unknown(),
  passed: z.boolean(),
  /**
   * Set on a failure that stands on its own: the journal's own answer broke a clause (an error where
   * the contract needs a result, no durable write inside prepare, a crash point announced in the
   * wrong operation, a planted secret echoed), so it decides the trial even when a planned kill is missing.
   */
  conclusive: z.literal(true).optional(),
  /**
   * The raw value of an observation the contract lets vary (a race, a kill window). `actual` then
   * names the allowance it fell in, and only that enters the outcome digest.
   */
  observed: z.unknown().optional(),
});

/** One process as kill evidence; the command line has the trial directory replaced by `<trial>`. */
export const ProcessEvidence = z.object({
  pid: z.number().int().min(1),
  session: z.number().int().min(0),
  group: z.number().int().min(0),
  cmdline: z.string(),
  /** What it held under the journal's directory (open file, working directory or mapping). */
  holds: z.array(z.string()),
});

export const Kill = z.object({
  /** What the scenario planned: a protocol boundary (`boundary:after-settle`) or an announced point. */
  planned: z.string().min(1),
  /** Where the kill actually happened (equal to planned when it was reached). */
  point: z.string().min(1),
  /** The protocol sequence number of the last message before the kill. */
  seq: z.number().int().min(0),
  /** The signal the harness observed when the driver's process group was reaped. */
  signal: z.string().nullable(),
  driver: z.string().min(1),
  /**
   * The proof of the kill: how many of the driver's processes it ended at once, those among them that had left
   * the driver's process group (a real crash all the same), and any that survived or still held the journal's
   * files (then the trial is inconclusive). Pids are evidence only: the outcome digest keeps just the counts.
   */
  tree: z
    .object({
      processes: z.number().int().min(0),
      escaped: z.array(ProcessEvidence),
      survivors: z.array(ProcessEvidence),
    })
    .optional(),
});

/** How many timeline events a trial keeps in the report; the middle of a longer trial is elided (see harness/transcript). */
export const MAX_TRIAL_EVENTS = 400;
export const TrialEventKind = z.enum([
  'start', 'request', 'result', 'error', 'crashpoint', 'resume', 'invalid', 'kill', 'exit', 'restart', 'target', 'disclosure', 'elided',
]);
/** One step of a trial's timeline, `t` ms after the trial began; built from the same record as the wire transcript. */
export const TrialEvent = z.object({
  t: z.number().min(0),
  kind: TrialEventKind,
  /** The driver process (`primary#1`), or null for the world (target writes). */
  driver: z.string().nullable(),
  /** The protocol sequence number of the line, for wire events. */
  seq: z.number().int().min(0).nullable(),
  /** The operation, crash point, kill point or target. */
  name: z.string().nullable(),
  /** A short outcome: a verdict, an error code, a signal, a write kind. */
  detail: z.string().nullable(),
});

export const TrialVerdict = z.enum(['passed', 'failed', 'inconclusive']);
export const Trial = z.object({
  id: z.string().min(1),
  seed: z.number().int().min(0),
  /** Planned kills; a trial that planned one and has none recorded is inconclusive. */
  plannedKills: z.number().int().min(0),
  kills: z.array(Kill),
  effectsBefore: z.array(EffectRow).nullable(),
  effectsAfter: z.array(EffectRow).nullable(),
  assertions: z.array(Assertion),
  counts: Counts,
  /** Counts the contract lets vary between runs (e.g. disclosures of two racing resumes); left out of the outcome digest. */
  variableCounts: z.array(z.enum(VariableCountKeys)).optional(),
  verdict: TrialVerdict,
  /** Why the trial is inconclusive (crash point never reached, timeout, protocol violation...). */
  inconclusiveReason: z.string().nullable(),
  violations: z.array(z.object({ op: z.string().nullable(), field: z.string().nullable(), message: z.string() })),
  /** The last lines the implementation wrote to stderr, for failing or inconclusive trials only. */
  stderrTail: z.array(z.string()),
  /** The trial's timeline (absent in reports written before it existed); times are not outcome, so the outcome digest leaves it out. */
  events: z.array(TrialEvent).max(MAX_TRIAL_EVENTS).optional(),
  durationMs: z.number().min(0),
});

export const ScenarioVerdict = z.enum(['passed', 'failed', 'inconclusive', 'not_applicable', 'expected_failure', 'stale_expected_failure']);
export const ScenarioResult = z.object({
  id: z.string().min(1),
  title: z.string(),
  spec: z.string(),
  tags: z.array(z.string()),
  verdict: ScenarioVerdict,
  /** For not_applicable: the missing capability; for failed: the first failed assertion. */
  reason: z.string().nullable(),
  reproduce: z.string().min(1),
  trials: z.array(Trial),
  durationMs: z.number().min(0),
});

export const Launch = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('module'),
    module: z.string().min(1),
    options: z.record(z.string(), z.string()),
    /** Declared-secret options (`--impl-secret`): name → the environment variable reproduce commands read it from. Never the value. */
    secretOptions: z.record(z.string(), z.string()).optional(),
  }),
  z.object({ kind: z.literal('command'), command: z.string().min(1) }),
]);

export const Summary = z.object({
  total: z.number().int().min(0),
  passed: z.number().int().min(0),
  failed: z.number().int().min(0),
  inconclusive: z.number().int().min(0),
  notApplicable: z.number().int().min(0),
  expectedFailures: z.number().int().min(0),
  staleExpectedFailures: z.number().int().min(0),
});

export const Verdict = z.enum(['conformant', 'nonconformant', 'inconclusive']);

/** What the verdict does not cover: scenarios that did not apply, by the capability (the journal's claim or the harness machine's) that kept them out. */
export const Scope = z.object({
  /** True when every selected scenario applied: the verdict holds for the whole selection. */
  complete: z.boolean(),
  excluded: z.array(z.object({
    /** The capability as --require names it: `sessions`, `tierMode:reconciling`, `point:<name>`, `fault:<name>`, `harness:strace`. */
    capability: z.string().min(1),
    by: z.enum(['journal', 'harness']),
    count: z.number().int().min(1),
    families: z.array(z.string()),
    scenarios: z.array(z.string()),
  })),
});

export const Report = z.object({
  schema: z.object({ name: z.literal(REPORT_SCHEMA_NAME), version: z.literal(REPORT_SCHEMA_VERSION) }),
  implementation: z.object({
    name: z.string().min(1),
    version: z.string().min(1),
    protocolVersion: z.number().int(),
    capabilities: Capabilities,
    launch: Launch,
  }),
  harness: z.object({ name: z.string(), version: z.string(), node: z.string(), platform: z.string(), build: HarnessBuild }),
  seed: z.number().int().min(0),
  selection: z.object({
    scenarios: z.array(z.string()),
    tags: z.array(z.string()),
    shard: z.object({ index: z.number().int().min(1), count: z.number().int().min(1) }).nullable(),
    /** --exclude globs; absent when none were given. */
    exclude: z.array(z.string()).optional(),
  }),
  startedAt: z.string(),
  finishedAt: z.string(),
  durationMs: z.number().min(0),
  verdict: Verdict,
  summary: Summary,
  counts: Counts,
  scenarios: z.array(ScenarioResult),
  /** Extra per-pack sections (e.g. `s8e`), each checked by its own verifier. */
  sections: z.record(z.string(), z.unknown()),
  reproduce: z.object({ run: z.string().min(1), verify: z.string().min(1) }),
  boundary: z.object({
    claim: z.string().min(1),
    covers: z.array(z.string()),
    excludes: z.array(z.string()),
  }),
  /** What was tested, by content (reports/binding-schema.ts). */
  fingerprint: Fingerprint,
  /** Where it ran: one entry, or one per shard in a merged report. */
  environment: z.array(Environment).min(1),
  /** The settings besides seed and selection that shape outcomes. */
  settings: Settings,
  /** What the claims (and the harness machine) kept out of the run; absent in reports written before it existed. */
  scope: Scope.optional(),
  /** Present only when the run stopped early (--bail): the scenarios it never started. Absent in a complete run. */
  partial: z.object({ reason: z.literal('bail'), stoppedAfter: z.string().min(1), notRun: z.array(z.string()) }).optional(),
  outcomeDigest: z.string().regex(/^[0-9a-f]{64}$/),
  contentHash: z.string().regex(/^[0-9a-f]{64}$/),
});

export type Assertion = z.infer<typeof Assertion>;
export type Scope = z.infer<typeof Scope>;
export type Kill = z.infer<typeof Kill>;
export type Trial = z.infer<typeof Trial>;
export type TrialEvent = z.infer<typeof TrialEvent>;
export type TrialEventKind = z.infer<typeof TrialEventKind>;
export type TrialVerdict = z.infer<typeof TrialVerdict>;
export type ScenarioResult = z.infer<typeof ScenarioResult>;
export type ScenarioVerdict = z.infer<typeof ScenarioVerdict>;
export type Launch = z.infer<typeof Launch>;
export type Summary = z.infer<typeof Summary>;
export type Verdict = z.infer<typeof Verdict>;
export type Report = z.infer<typeof Report>;
/** A report before its digests are computed. */
export type UnsealedReport = Omit<Report, 'outcomeDigest' | 'contentHash'>;

/** A zero count vector. */
export function zeroCounts(): Counts {
  return Object.fromEntries(CountKeys.map((k) => [k, 0])) as Counts;
}
