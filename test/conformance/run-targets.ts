// Runs a target table's scenarios against one journal (a module, or a .py driver): seed 1, no shard, nothing kept, 10 s per operation.
import { runConformance } from '../../runner/run-conformance.js';
import type { Report } from '../../reports/schema.js';

/** The report of `scenarios` run against `module` started with `options`, as the target tables state them. */
export function runTargetScenarios(module: string, options: Record<string, string>, scenarios: readonly string[]): Promise<Report> {
  return runConformance({
    // A Python journal speaks the wire protocol itself; it takes no adapter options.
    launch: module.endsWith('.py') ? { kind: 'command', command: `python3 ${module}` } : { kind: 'module', module, options },
    scenarioPatterns: [...scenarios],
    tags: [],
    seed: 1,
    shard: null,
    expectFailures: new Set(),
    keep: 'none',
    timeoutMs: 10_000,
    argv: ['run'],
  });
}
