// Scenario families (the id's first segment) and why a scenario did not apply: read by the CLI, JUnit, CI summaries and HTML.
import type { ScenarioResult } from './schema.js';

/** A scenario's family: its id up to the first dot (`cp04`, `kxm`, `sweep`), a JUnit classname with no dots of its own. */
export function scenarioFamily(id: string): string {
  const dot = id.indexOf('.');
  return dot <= 0 ? id : id.slice(0, dot);
}

// harness/scenario.ts phrases every need the harness machine (not the implementation) must meet as "... on the harness machine".
const HARNESS_SIDE = 'on the harness machine';

/** Whether a not-applicable reason is about the harness machine (strace missing, ptrace forbidden), not the implementation. */
export function isHarnessSide(reason: string | null): boolean {
  return reason !== null && reason.includes(HARNESS_SIDE);
}

/** One line of the not-applicable summary: a family, one reason, how many scenarios it kept out. */
export interface NotApplicableGroup {
  readonly family: string;
  readonly reason: string;
  readonly count: number;
  readonly harnessSide: boolean;
  readonly ids: readonly string[];
}

/** The not-applicable scenarios grouped by family and reason, in catalog order. */
export function notApplicableByFamily(scenarios: readonly ScenarioResult[]): NotApplicableGroup[] {
  const groups = new Map<string, { family: string; reason: string; ids: string[] }>();
  for (const s of scenarios) {
    if (s.verdict !== 'not_applicable') continue;
    const reason = s.reason ?? 'a needed capability is missing';
    const family = scenarioFamily(s.id);
    const key = `${family}\u0000${reason}`;
    const group = groups.get(key) ?? { family, reason, ids: [] };
    group.ids.push(s.id);
    groups.set(key, group);
  }
  return [...groups.values()].map((g) => ({ ...g, count: g.ids.length, harnessSide: isHarnessSide(g.reason) }));
}
