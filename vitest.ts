// Public entry `effect-journal-conformance/vitest`: registers the scenario matrix as vitest tests for one journal.
import { beforeAll, describe, it } from 'vitest';
import { probe, reproduceCommand, resolveForSpawn, REFERENCE_MODULE } from './runner/run-conformance.js';
import { runScenario } from './harness/run-scenario.js';
import { selectScenarios } from './harness/select-scenarios.js';
import { allScenarios } from './scenarios/catalog.js';
import type { HelloResult } from './shared/protocol/schemas.js';
import { defaultSecretEnv } from './harness/secrets/impl-secrets.js';
import { registerSecret } from './shared/secrets/mask.js';
import type { Launch, ScenarioResult } from './reports/schema.js';
import { DEFAULT_SEED, DEFAULT_TIMEOUT_MS } from './shared/defaults.js';
import { failedAssertions, failedTrialRows, stderrTail } from './reports/failure-text.js';
import { inGitHubActions, scenarioAnnotation } from './reports/github-actions.js';
import { maskText, printMasked } from './harness/masked-output.js';

export interface ConformanceSuiteOptions {
  /** Path of a JavaScript adapter module exporting `createJournal` (relative to the working directory). */
  readonly impl?: string;
  /** A command speaking the wire protocol, e.g. `python3 journal.py`. */
  readonly cmd?: string;
  /** `--impl-option` pairs for the adapter. */
  readonly implOptions?: Readonly<Record<string, string>>;
  /** `--impl-secret` pairs: options whose values reach the adapter through its environment and are masked in every message. */
  readonly implSecrets?: Readonly<Record<string, string>>;
  /** Scenario id globs (default: all) and tags (default: all). */
  readonly scenarios?: readonly string[];
  readonly tags?: readonly string[];
  /** Scenario ids your journal is known to fail; they are skipped (as expected failures) while failing and fail once they pass. */
  readonly expectFailures?: readonly string[];
  /** The seed (default: the CLI's, 1). */
  readonly seed?: number;
  /** Per-operation timeout in milliseconds (default: the CLI's, 30000). */
  readonly timeoutMs?: number;
  /** The describe block's name. */
  readonly name?: string;
}

/** Thrown inside a vitest test when a scenario does not pass; its message is the whole diagnosis. */
export class ConformanceFailure extends Error {
  readonly code = 'conformance_failure';
  constructor(
    readonly result: ScenarioResult,
    /** The trial directories kept for it (each holds transcript.jsonl). */
    readonly kept: readonly string[] = [],
  ) {
    super(maskText(describeFailure(result, kept)));
    this.name = 'ConformanceFailure';
  }
}

/** Registers one vitest test per selected scenario against the given journal (default: the reference journal). */
export function conformanceSuite(options: ConformanceSuiteOptions = {}): void {
  const implSecrets = { ...(options.implSecrets ?? {}) };
  for (const [key, value] of Object.entries(implSecrets)) registerSecret(value, `impl-secret:${key}`);
  const launch = launchOf(options, Object.keys(implSecrets));
  const seed = options.seed ?? DEFAULT_SEED;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const expected = new Set(options.expectFailures ?? []);
  const selected = selectScenarios(allScenarios(), [...(options.scenarios ?? [])], [...(options.tags ?? [])], null);
  describe(options.name ?? `effect journal conformance (${describeLaunch(launch)})`, () => {
    let hello: HelloResult | null = null;
    beforeAll(async () => {
      hello = await probe(resolveForSpawn(launch), timeoutMs, implSecrets);
    }, 60_000);
    for (const scenario of selected) {
      it(scenario.id, async (ctx) => {
        if (!hello) throw new Error('the implementation did not answer hello (see the beforeAll error)');
        const kept: string[] = [];
        const result = await runScenario(scenario, {
          launch: resolveForSpawn(launch),
          seed,
          timeoutMs,
          keep: 'failed',
          capabilities: hello.capabilities,
          expectedFailure: expected.has(scenario.id),
          reproduce: reproduceCommand({ launch, seed, timeoutMs }, scenario.id),
          implSecrets,
          onKept: (_id, dir) => {
            kept.push(dir);
            process.stderr.write(`ejc: kept the trial directory of ${scenario.id}: ${dir}\n`);
          },
        });
        if (result.verdict === 'not_applicable') return ctx.skip(result.reason ?? 'not applicable');
        // Skipped, not passed: the journal still fails it, and a green tick would say it conforms.
        if (result.verdict === 'expected_failure') return ctx.skip(`expected failure (listed in expectFailures): ${result.reason ?? 'an assertion failed'}`);
        if (result.verdict !== 'passed') {
          // Our own annotation names the scenario and its reproduce command, whatever reporters the project configured.
          if (inGitHubActions()) printMasked(process.stdout, `\n${scenarioAnnotation(result, kept)}\n`);
          throw new ConformanceFailure(result, kept);
        }
      }, Math.min(timeoutMs * 20, 2 ** 31 - 1));
    }
  });
}

function launchOf(options: ConformanceSuiteOptions, secretKeys: readonly string[]): Launch {
  if (options.impl && options.cmd) throw new Error('conformanceSuite: give impl or cmd, not both');
  if (options.cmd) {
    if (secretKeys.length > 0) throw new Error('conformanceSuite: implSecrets configure an impl adapter; a cmd implementation reads its secrets from its own environment');
    return { kind: 'command', command: options.cmd };
  }
  const secretOptions = Object.fromEntries(secretKeys.map((k) => [k, defaultSecretEnv(k)]));
  const module = options.impl ?? REFERENCE_MODULE;
  return { kind: 'module', module, options: { ...(options.implOptions ?? {}) }, ...(secretKeys.length === 0 ? {} : { secretOptions }) };
}

function describeLaunch(launch: Launch): string {
  return launch.kind === 'command' ? launch.command : launch.module;
}

function describeFailure(result: ScenarioResult, kept: readonly string[]): string {
  const lines = [`${result.id} ${result.verdict}: ${result.reason ?? ''}`.trim()];
  for (const a of failedAssertions(result, 400)) lines.push(`  ✗ ${a.name}`, `      expected: ${a.expected}`, `      actual:   ${a.actual}`, ...a.difference.map((l) => `      ${l}`));
  for (const l of failedTrialRows(result)) lines.push(`  ${l}`);
  const tail = stderrTail(result, 8);
  if (tail.length > 0) lines.push('  implementation stderr (tail):', ...tail.map((l) => `    ${l}`));
  for (const dir of kept) lines.push(`  kept: ${dir} (transcript.jsonl holds every protocol line)`);
  lines.push(`  reproduce: ${result.reproduce}`);
  return lines.join('\n');
}
