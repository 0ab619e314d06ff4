// Runs a target table's scenarios against one journal (a module, or a .py driver): seed 1, no shard, nothing kept, 60 s per operation (a
// bound on a hung journal, not a speed check: under load an operation of a broken journal can take seconds, and a
// timeout would turn its failure into an inconclusive).
import { runConformance } from '../../runner/run-conformance.js';
import type { Launch, Report } from '../../reports/schema.js';

/** The report of `scenarios` run against `module` started with `options`, as the target tables state them. */
export function runTargetScenarios(module: string, options: Record<string, string>, scenarios: readonly string[], seed = 1): Promise<Report> {
  // A Python journal speaks the wire protocol itself; it takes no adapter options.
  return runLaunchScenarios(module.endsWith('.py') ? { kind: 'command', command: `python3 ${module}` } : { kind: 'module', module, options }, scenarios, seed);
}

/** The named scenarios on seed 1 (or `seed`) against any launch, nothing kept. */
export function runLaunchScenarios(launch: Launch, scenarios: readonly string[], seed = 1): Promise<Report> {
  return runConformance({
    launch,
    scenarioPatterns: [...scenarios],
    tags: [],
    seed,
    shard: null,
    expectFailures: new Set(),
    keep: 'none',
    timeoutMs: 60_000,
    argv: ['run'],
  });
}
