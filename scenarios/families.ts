// The scenario families, by the contract concept they check: `ejc list` heads each group with its line here.
import { scenarioFamily } from '../reports/family.js';

/** What each family checks, keyed by the id's first segment; the crash-matrix points cp01–cp11 share one entry. */
export const FAMILY_TITLES: Readonly<Record<string, string>> = {
  cp: 'the §12 crash matrix: a SIGKILL at each of the eleven crash points, with variants',
  identity: 'effect identity: scope, slot, tool id and tier-1 keys (§2)',
  replay: 'replay and refusal: which changes refuse a replay, which replay the recorded result (§4, §11)',
  gate: 'the resume gate: every cell of its table, read failures, repeated resumes (§4)',
  retention: 'retention: what terminal and session sweeps keep and remove (§9)',
  disclosure: 'session disclosure and acceptance: each committed effect disclosed once (§8, §12)',
  erasure: 'erasure: results gone from every file once freed or swept (§9, §11)',
  digest: 'the persisted digest form and its canonical-JSON corners (§11)',
  concurrency: 'several processes on one journal (§2, §10)',
  recovery: 'settle, reconcile and operator resolution (§6, §7)',
  secrets: 'secret bytes absent from every file the journal keeps (§11)',
  sweep: 'a SIGKILL at every durable write of an operation (§10)',
  claims: 'the hello claims match what the journal does (§10, protocol)',
  kxm: 'KXM recovery classes, resolution, cancellation and leases',
  s8e: 'the S8e witnessed effect batch',
  explore: 'generated workloads and crash schedules, checked by the model',
};

/** The listing family of a scenario id: its first segment, with cp01–cp11 as the one crash-matrix family `cp`. */
export function listingFamily(id: string): string {
  const family = scenarioFamily(id);
  return /^cp\d+$/.test(family) ? 'cp' : family;
}

/** The heading line `ejc list` prints above a family's scenarios. */
export function familyHeading(family: string, count: number): string {
  const name = family === 'cp' ? 'cp01–cp11' : `${family}.*`;
  return `${name}: ${FAMILY_TITLES[family] ?? 'scenarios'} (${count})`;
}
