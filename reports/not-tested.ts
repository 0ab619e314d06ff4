// What a run could not test because its machine lacked a tool (strace, libfaketime, PID namespaces, better-sqlite3): derived from where it ran.
import { DIMENSIONS, type DimensionId } from '../shared/dimensions.js';
import { needOfReason } from './scope.js';
import type { Environment } from './binding-schema.js';
import type { NotTested, ScenarioResult } from './schema.js';

type Where = Pick<Environment, 'confinement'> & Partial<Pick<Environment, 'strace' | 'faketime' | 'sqlite'>>;

/**
 * One entry per dimension some environment of the report lacked (any shard's machine is enough: its scenarios were
 * not tested there), with the not-applicable scenarios that needed it. An environment written before a probe
 * existed (no `faketime` key) lists nothing for it: unknown is not missing.
 */
export function notTestedOf(environment: readonly Where[], scenarios: ReadonlyArray<Pick<ScenarioResult, 'id' | 'verdict' | 'reason'>>): NotTested[] {
  return DIMENSIONS.filter((d) => environment.some((e) => lacks(e, d.id))).map((d) => ({
    dimension: d.id,
    tool: d.tool,
    untested: d.untested,
    install: d.install,
    scenarios: scenarios.filter((s) => s.verdict === 'not_applicable' && needOfReason(s.reason) === `harness:${d.id}`).map((s) => s.id).sort(),
  }));
}

/** Whether one environment lacked the dimension. */
export function lacks(e: Where, id: DimensionId): boolean {
  if (id === 'strace') return e.strace === null;
  if (id === 'clock') return e.faketime === null;
  if (id === 'sqlite') return e.sqlite === null;
  return e.confinement === 'process-tree';
}

/** The terminal's block, printed before the verdict: each missing dimension, what it left untested, how to get it. */
export function notTestedLines(entries: readonly NotTested[]): string[] {
  if (entries.length === 0) return [];
  const lines = [`not tested on this machine (${entries.length} dimension(s) missing; the verdict says nothing about them):`];
  for (const e of entries) {
    const kept = e.scenarios.length > 0 ? ` (${e.scenarios.length} scenario(s) not applicable)` : '';
    lines.push(`  ${e.dimension}: no ${e.tool}: ${e.untested}${kept}`, `    install: ${e.install}; --require ${e.dimension} makes its absence a failure (exit 4)`);
  }
  return lines;
}
