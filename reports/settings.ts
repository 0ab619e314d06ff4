// The settings record of a report, and the run options it stands for when a report is re-run.
import type { Settings } from './binding-schema.js';

/** Family settings a scenario family contributes, e.g. `{ explore: { seed: 5, trials: 200 } }`. */
export type FamilySettings = Record<string, Record<string, string | number | boolean>>;

/** The settings record of a run: everything besides seed and selection that can change an outcome. */
export function settingsOf(options: { timeoutMs: number; expectFailures: Iterable<string>; familySettings?: FamilySettings }): Settings {
  const families: FamilySettings = {};
  for (const name of Object.keys(options.familySettings ?? {}).sort()) {
    const values = options.familySettings![name]!;
    families[name] = Object.fromEntries(Object.keys(values).sort().map((k) => [k, values[k]!]));
  }
  return {
    timeoutMs: options.timeoutMs,
    expectFailures: [...new Set(options.expectFailures)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    families,
  };
}
