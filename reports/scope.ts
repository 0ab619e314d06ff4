// What a run did not test because of a claim: the not-applicable scenarios grouped by the capability that kept them out.
import { isHarnessSide, scenarioFamily } from './family.js';
import { compareIds } from './seal.js';
import type { ScenarioResult, Scope, Verdict } from './schema.js';

/** The scope a report's verdict holds for: every scenario that did not apply, by the capability it needed. */
export function claimedScope(scenarios: ReadonlyArray<Pick<ScenarioResult, 'id' | 'verdict' | 'reason'>>): Scope {
  const groups = new Map<string, { capability: string; by: 'journal' | 'harness'; scenarios: string[] }>();
  for (const s of scenarios) {
    if (s.verdict !== 'not_applicable') continue;
    const capability = needOfReason(s.reason);
    const group = groups.get(capability) ?? { capability, by: isHarnessSide(s.reason) ? 'harness' : 'journal', scenarios: [] };
    group.scenarios.push(s.id);
    groups.set(capability, group);
  }
  const excluded = [...groups.values()]
    .sort((a, b) => compareIds(a.capability, b.capability))
    // Ids in code-unit order: a merge of shards (sorted by id) and the unsharded run (catalog order) record the same scope.
    .map((g) => ({ ...g, scenarios: [...g.scenarios].sort(compareIds), count: g.scenarios.length, families: [...new Set(g.scenarios.map(scenarioFamily))].sort(compareIds) }));
  return { complete: excluded.length === 0, excluded };
}

/**
 * The capability a not-applicable reason names (harness/scenario.ts missingNeed phrases them): `sessions`,
 * `tierMode:conservative`, `point:prepare.before-commit`, `fault:gate_read_fails`, `harness:strace`.
 */
export function needOfReason(reason: string | null): string {
  const text = (reason ?? '').replace(/^needs /, '');
  const point = /^announced crash point (\S+)/.exec(text);
  if (point) return `point:${point[1]}`;
  const fault = /^injectable fault (\S+)/.exec(text);
  if (fault) return `fault:${fault[1]}`;
  if (isHarnessSide(reason)) return `harness:${text.split(' ')[0]}`;
  return text.split(/[\s(]/)[0] || 'unknown';
}

/** The verdict as one sentence that never overstates: a conformant run says what the claims kept out of it. */
export function verdictStatement(verdict: Verdict, scope: Scope): string {
  // Only a conformant verdict can overstate; the others are already no pass, and their outputs list the exclusions beside.
  if (scope.complete || verdict !== 'conformant') return verdict;
  const total = scope.excluded.reduce((n, g) => n + g.count, 0);
  return `conformant within the claimed scope only: ${total} scenario(s) not run because of ${scope.excluded.map((g) => `${g.capability} (${g.count})`).join(', ')}`;
}

/** One line per exclusion: what was not tested, because of which capability, and how to include it. */
export function exclusionLines(scope: Scope): string[] {
  return scope.excluded.map((g) => `${g.capability}: ${g.count} scenario(s) of ${g.families.join(', ')} not tested (${exclusionReason(g)})`);
}

/** Why one capability's scenarios were not tested, and what makes CI fail without them. */
export function exclusionReason(g: Scope['excluded'][number]): string {
  return g.by === 'harness' ? 'the harness machine lacks it (--require makes that an error)' : `the journal does not claim it; --require ${requireName(g.capability)} makes a CI gate fail without it`;
}

/** The --require name of a capability (`harness:strace` is required as `strace`). */
export function requireName(capability: string): string {
  return capability.replace(/^harness:/, '');
}
