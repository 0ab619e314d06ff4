// The conformance report's zod schema: the witness artifact every run writes and `ejc verify` checks.
import { z } from 'zod';
import { Capabilities, EffectRow } from '../harness/protocol/schemas.js';

export const REPORT_SCHEMA_NAME = 'ejc-conformance-report';
export const REPORT_SCHEMA_VERSION = 1;

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
export const Counts = z.object(Object.fromEntries(CountKeys.map((k) => [k, z.number().int().min(0)])) as Record<CountKey, z.ZodNumber>);
export type Counts = z.infer<typeof Counts>;

export const Assertion = z.object({
  name: z.string().min(1),
  expected: z.unknown(),
  actual: z.unknown(),
  passed: z.boolean(),
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
  verdict: TrialVerdict,
  /** Why the trial is inconclusive (crash point never reached, timeout, protocol violation...). */
  inconclusiveReason: z.string().nullable(),
  violations: z.array(z.object({ op: z.string().nullable(), field: z.string().nullable(), message: z.string() })),
  /** The last lines the implementation wrote to stderr, for failing or inconclusive trials only. */
  stderrTail: z.array(z.string()),
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
  z.object({ kind: z.literal('module'), module: z.string().min(1), options: z.record(z.string(), z.string()) }),
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

export const Report = z.object({
  schema: z.object({ name: z.literal(REPORT_SCHEMA_NAME), version: z.literal(REPORT_SCHEMA_VERSION) }),
  implementation: z.object({
    name: z.string().min(1),
    version: z.string().min(1),
    protocolVersion: z.number().int(),
    capabilities: Capabilities,
    launch: Launch,
  }),
  harness: z.object({ name: z.string(), version: z.string(), node: z.string(), platform: z.string() }),
  seed: z.number().int().min(0),
  selection: z.object({
    scenarios: z.array(z.string()),
    tags: z.array(z.string()),
    shard: z.object({ index: z.number().int().min(1), count: z.number().int().min(1) }).nullable(),
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
  /** Present only when the run stopped early (--bail): the scenarios it never started. Absent in a complete run. */
  partial: z.object({ reason: z.literal('bail'), stoppedAfter: z.string().min(1), notRun: z.array(z.string()) }).optional(),
  outcomeDigest: z.string().regex(/^[0-9a-f]{64}$/),
  contentHash: z.string().regex(/^[0-9a-f]{64}$/),
});

export type Assertion = z.infer<typeof Assertion>;
export type Kill = z.infer<typeof Kill>;
export type Trial = z.infer<typeof Trial>;
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
