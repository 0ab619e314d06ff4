// Which scenario must fail (failed, never not applicable) for each claim-* journal: its hello hid a real bug by what it claimed.
import type { Report } from '../../reports/schema.js';
import { catchesOf, realisticTarget, type RealisticTarget } from './realistic-target.js';

const realistic = (await import(new URL('../broken/realistic/index.mjs', import.meta.url).href)) as { CLAIM: string[]; realisticModule: (name: string) => string };

// Before the claim checks each of these ran the default matrix conformant (or caught only by a generated trial): the
// scenarios that would catch the bug were not applicable because of the claim.
const CATCHES: Readonly<Record<string, readonly string[]>> = {
  'claim-harness-gate': ['claims.operations-match-hello', 'cp02.after-prepare.tier3'],
  'claim-kxm-off': ['claims.operations-match-hello'],
  'claim-point-after-commit': ['claims.crash-points-block'],
  'claim-resolution-off': ['claims.operations-match-hello'],
  'claim-seeding-off': ['claims.operations-match-hello'],
  'claim-sessions-off': ['claims.operations-match-hello'],
  'claim-wal-denied': ['claims.storage-matches-hello'],
};

export type ClaimTarget = RealisticTarget;

/** One catalogue entry per claim journal: its module, and evidence that each designed scenario failed on the claim. */
export const CLAIM_TARGETS: readonly ClaimTarget[] = realistic.CLAIM.map((name) =>
  realisticTarget(realistic.realisticModule(name), name, catchesOf(CATCHES, name, 'test/conformance/claim-targets.ts'), { also: findingsNameTheClaim }),
);

function findingsNameTheClaim(report: Report): void {
  // The finding names the claim and what it kept out, so the author sees why the narrowed run was not the whole test.
  const named = report.scenarios.filter((s) => s.id.startsWith('claims.') && s.verdict === 'failed').flatMap((s) => s.trials.flatMap((t) => t.assertions.filter((a) => !a.passed)));
  for (const a of named) if (!/capabilities\.|announced|held/.test(a.name)) throw new Error(`a claims finding does not name the claim: ${a.name}`);
}
