// One realistic broken journal's catalogue entry: its module, and evidence that each scenario designed for its class failed.
import type { Report } from '../../reports/schema.js';
import type { DefectTarget } from './defect-targets.js';

export interface RealisticTarget {
  readonly module: string;
  readonly target: DefectTarget;
}

/**
 * The entry for journal `name` at `module`: each of `scenarios` must be *failed* (never inconclusive or not applicable),
 * then `also` may require more of the report; `setup` puts in place what the bug needs before the run and removes it after.
 */
export function realisticTarget(
  module: string,
  name: string,
  scenarios: readonly string[],
  options: { setup?: Pick<DefectTarget, 'before' | 'after'>; also?: (report: Report) => void; attempts?: number } = {},
): RealisticTarget {
  const evidence = (report: Report): void => {
    expectFailed(report, scenarios);
    options.also?.(report);
  };
  return { module, target: { defect: `realistic/${name}`, scenarios, ...options.setup, evidence, ...(options.attempts === undefined ? {} : { attempts: options.attempts }) } };
}

/** Throws unless every one of `scenarios` is in the report as failed. */
export function expectFailed(report: Report, scenarios: readonly string[]): void {
  const wrong = scenarios.flatMap((id) => {
    const s = report.scenarios.find((x) => x.id === id);
    return s?.verdict === 'failed' ? [] : [`${id}: ${s?.verdict ?? 'not run'} ${s?.reason ?? ''}`];
  });
  if (wrong.length > 0) throw new Error(`expected failed, got ${wrong.join('; ')}`);
}

/** The scenarios `table` names for `name`, or an error naming the table file that lacks them. */
export function catchesOf(table: Readonly<Record<string, readonly string[]>>, name: string, file: string): readonly string[] {
  const scenarios = table[name];
  if (!scenarios) throw new Error(`${file} names no catching scenario for ${name}`);
  return scenarios;
}
