// `--require <capability>`: a capability a run must have, so a scenario family that would not run fails the run instead.
// Harness capabilities (strace) are checked before any trial; journal capabilities (sessions, kxm, …) against its hello.
import { EjcError } from '../shared/errors.js';
import { straceAvailable } from '../harness/engine/syscall-sweep.js';
import { closestIds } from '../harness/select-scenarios.js';
import { missingNeed, type Need } from '../harness/scenario.js';
import { allScenarios } from '../scenarios/catalog.js';
import { scenarioFamily } from '../reports/family.js';
import type { Report } from '../reports/schema.js';

// Each harness capability: how to tell it is missing, and what to do about it.
const CAPABILITIES: Record<string, { missing: () => boolean; fix: string }> = {
  strace: {
    missing: () => !straceAvailable(),
    fix: 'strace is not installed or ptrace is not permitted here; install strace (apt-get install strace) and allow ptrace (e.g. run the container with --cap-add SYS_PTRACE)',
  },
};

/** The journal capabilities a hello can claim, as --require names them (plus point:<name> and fault:<name>). */
const JOURNAL = ['sessions', 'seeding', 'outerTransactionProbe', 'kxm', 'resolution', 'sqliteWal', 'tierMode:reconciling', 'tierMode:conservative'] as const;

/** Named sets of journal capabilities: `contract` is every operation family the contract names beyond runs. */
const PROFILES: Record<string, readonly string[]> = { contract: ['sessions', 'seeding', 'kxm', 'resolution'] };

/** The capabilities --require accepts. */
export const REQUIRABLE = [...Object.keys(CAPABILITIES), ...JOURNAL, 'point:<name>', 'fault:<name>', ...Object.keys(PROFILES).map((p) => `profile ${p}`)];

/**
 * Throws before any trial when a required harness capability is missing (exit 3), or when a name is unknown; returns the
 * journal capabilities required (commas split, profiles expanded), to be checked against the journal's hello.
 */
export function checkRequirements(values: readonly string[]): Need[] {
  const journal: Need[] = [];
  for (const raw of values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '')) {
    const expanded = PROFILES[raw] ?? [raw];
    for (const one of expanded) {
      const need = journalNeed(one);
      if (need !== null) {
        journal.push(need);
        continue;
      }
      const name = one.replace(/^harness:/, '');
      const capability = CAPABILITIES[name];
      if (capability === undefined) {
        const near = closestIds([...Object.keys(CAPABILITIES), ...JOURNAL, ...Object.keys(PROFILES)], name, 1);
        throw new EjcError('usage', `--require ${raw}: unknown capability${near.length > 0 ? ` (did you mean ${near[0]}?)` : ''}; known: ${REQUIRABLE.join(', ')}`);
      }
      if (capability.missing()) {
        throw new EjcError('harness_requirement', `--require ${name}: the scenarios that need it cannot run on this machine: ${capability.fix}; or drop --require ${name} to run without them (a warning names them)`);
      }
    }
  }
  return [...new Set(journal)];
}

/** One message per required journal capability the report's hello did not claim: the capability, what did not run, the fix. */
export function unmetRequirements(report: Pick<Report, 'implementation' | 'scenarios'>, required: readonly Need[]): string[] {
  const caps = report.implementation.capabilities;
  const needsOf = new Map(allScenarios().map((s) => [s.id, s.needs]));
  return required.flatMap((need) => {
    const missing = missingNeed([need], caps);
    if (missing === null) return [];
    const ids = report.scenarios.filter((s) => s.verdict === 'not_applicable' && (needsOf.get(s.id) ?? []).includes(need)).map((s) => s.id);
    const families = [...new Set(ids.map(scenarioFamily))];
    return [
      `--require ${need}: the journal's hello does not claim ${missing}, so ${ids.length} scenario(s)${families.length > 0 ? ` (${families.join(', ')})` : ''} did not run and the verdict says nothing about them; ` +
        `${fixFor(need)}, or drop ${need} from --require`,
    ];
  });
}

function journalNeed(name: string): Need | null {
  if ((JOURNAL as readonly string[]).includes(name)) return name as Need;
  if (/^(point|fault):\S+$/.test(name)) return name as Need;
  return null;
}

function fixFor(need: Need): string {
  if (need.startsWith('point:')) return `announce ${need.slice(6)} in capabilities.crashPoints and block there until resumed`;
  if (need.startsWith('fault:')) return `offer ${need.slice(6)} in capabilities.faults`;
  if (need.startsWith('tierMode:')) return `run the journal in ${need.slice(9)} mode (capabilities.tierMode: "${need.slice(9)}")`;
  return `implement it and set capabilities.${need}: true in hello (then those scenarios run)`;
}
