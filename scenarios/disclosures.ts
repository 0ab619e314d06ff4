// Compares what a resume disclosed with what §8 requires: by effect address and state, accepting any conservative reason.
import { isUnresolvedState, type DisclosureReason } from '../shared/protocol/schemas.js';
import type { Disclosed } from '../harness/engine/session-engine.js';
import type { TrialContext } from '../harness/engine/trial-context.js';

/** The reasons a committed row may be disclosed under "conservatively as possibly incomplete" (§8). */
export const CONSERVATIVE_REASONS: readonly DisclosureReason[] = ['turn_incomplete', 'unattributable', 'legacy'];

/**
 * Expected disclosures are `<address>:unresolved`, `<address>:turn_incomplete` (a committed call absent from the
 * transcript: "landed in a turn that did not complete") or `<address>:conservative` (any conservative reason).
 */
export type ExpectedDisclosure = `${string}:${'unresolved' | 'turn_incomplete' | 'conservative'}`;

/** A disclosure as the report shows it: `address:reason`, with `@state` when the state contradicts the reason. */
export function disclosureLabel(d: Disclosed): string {
  const consistent = d.reason === 'unresolved' ? isUnresolvedState(d.state) : d.state === 'committed';
  return consistent ? `${d.address}:${d.reason}` : `${d.address}:${d.reason}@${d.state ?? 'unknown'}`;
}

/** Records one assertion: the resume disclosed exactly the expected effects, each once. */
export function expectDisclosures(t: TrialContext, name: string, expected: readonly ExpectedDisclosure[], disclosed: readonly Disclosed[]): boolean {
  const actual = disclosed.map(disclosureLabel).sort();
  return t.check(name, [...expected].sort(), actual, sameDisclosures(expected, actual));
}

// A multiset match: every expected disclosure pairs with exactly one actual one and nothing is left over.
function sameDisclosures(expected: readonly ExpectedDisclosure[], actual: readonly string[]): boolean {
  const left = [...actual];
  for (const want of expected) {
    const cut = want.lastIndexOf(':');
    const address = want.slice(0, cut);
    const kind = want.slice(cut + 1);
    const i = left.findIndex((got) => got === want || (kind === 'conservative' && CONSERVATIVE_REASONS.some((r) => got === `${address}:${r}`)));
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return left.length === 0;
}
